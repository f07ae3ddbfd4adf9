import Crypto
import Foundation

/// Reading and writing items, sealed under the data key.
extension Vault {
    /// The raw bytes stored under `key`, or `nil` when there are none.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/tampered(_:)`` when the stored item was
    ///   modified (other items still read), or — for every item — when items were put back,
    ///   removed or moved outside the vault (checked at a session's first item operation).
    public func data(forKey key: String) throws(VaultError) -> Data? {
        try state.withLock { state throws(VaultError) in
            let (session, database) = try verifiedSession(&state)
            let id = session.dataKey.itemID(for: key)
            guard let sealed = try database.sealedItem(id: id) else { return nil }
            return try session.dataKey.open(sealed, itemID: id, name: key)
        }
    }

    /// The id under which the item `key` is stored (HMAC of the name); for diagnostics and tests.
    func storedID(forKey key: String) throws(VaultError) -> Data {
        try state.withLock { state throws(VaultError) in
            guard let session = state.session else { throw .locked }
            return session.dataKey.itemID(for: key)
        }
    }

    /// Stores raw bytes under `key`, replacing any previous value.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``, ``VaultError/tampered(_:)``
    ///   as for ``data(forKey:)``.
    public func set(_ data: Data, forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            var (session, database) = try verifiedSession(&state)
            let dataKey = session.dataKey
            let id = dataKey.itemID(for: key)
            let sealed = try dataKey.seal(data, itemID: id)
            try commit(&session, database: database, item: ItemWrite(id: id, sealed: sealed))
            state.session = session
        }
    }

    /// The value stored under `key`, decoded from JSON (or returned as is for `Data`).
    ///
    /// ```swift
    /// let profile = try vault.value(Profile.self, forKey: "profile")
    /// ```
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws(VaultError) -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        if let raw = data as? Value, Value.self == Data.self { return raw }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .coding("cannot decode \(Value.self) from item \(key.debugDescription): \(error)")
        }
    }

    /// Stores `value` under `key` as JSON (a `Data` value is stored as is).
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws(VaultError) {
        if let raw = value as? Data { return try set(raw, forKey: key) }
        let data: Data
        do {
            data = try JSONEncoder.sorted.encode(value)
        } catch {
            throw .coding("cannot encode \(Value.self) for item \(key.debugDescription): \(error)")
        }
        try set(data, forKey: key)
    }

    /// Removes the item under `key`; removing a missing item is not an error.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``, ``VaultError/tampered(_:)``
    ///   as for ``data(forKey:)``.
    public func removeValue(forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            var (session, database) = try verifiedSession(&state)
            let dataKey = session.dataKey
            let id = dataKey.itemID(for: key)
            try commit(&session, database: database, item: ItemWrite(id: id, sealed: nil))
            state.session = session
        }
    }
}
