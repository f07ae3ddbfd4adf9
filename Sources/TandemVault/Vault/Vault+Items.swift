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
            let id = session.itemID(for: key)
            guard let sealed = try database.sealedItem(id: id) else { return nil }
            return try session.dataKey.open(sealed, itemID: id, name: key)
        }
    }

    /// The id under which the item `key` is stored (HMAC of the name); for diagnostics and tests.
    func storedID(forKey key: String) throws(VaultError) -> Data {
        try state.withLock { state throws(VaultError) in
            guard let session = state.session else { throw .locked }
            return session.itemID(for: key)
        }
    }

    /// Stores raw bytes under `key`, replacing any previous value.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``, ``VaultError/tampered(_:)``
    ///   as for ``data(forKey:)``.
    public func set(_ data: Data, forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            var (session, database) = try verifiedSession(&state)
            let id = session.itemID(for: key)
            try commit(&session, database: database, items: { try $0.apply(ItemWrite(id: id, value: data)) })
            state.session = session
        }
    }

    /// The value stored under `key`, decoded from JSON (or returned as is for `Data`).
    ///
    /// ```swift
    /// let profile = try vault.value(Profile.self, forKey: "profile")
    /// ```
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws(VaultError) -> Value? {
        try Self.decode(Value.self, from: data(forKey: key), key: key)
    }

    /// Stores `value` under `key` as JSON (a `Data` value is stored as is).
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws(VaultError) {
        try set(Self.encode(value, key: key), forKey: key)
    }

    /// Removes the item under `key`; removing a missing item is not an error.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``, ``VaultError/tampered(_:)``
    ///   as for ``data(forKey:)``.
    public func removeValue(forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            var (session, database) = try verifiedSession(&state)
            let id = session.itemID(for: key)
            try commit(&session, database: database, items: { try $0.apply(ItemWrite(id: id, value: nil)) })
            state.session = session
        }
    }

    /// Runs `body` as one transaction: every item it stores or removes is written together,
    /// with one check that no other process wrote in between and one commit, or — when `body`
    /// throws — none is.
    ///
    /// ```swift
    /// try vault.write { transaction in
    ///     try transaction.set(tokens.refreshToken, forKey: "refresh-token")
    ///     try transaction.set(profile, forKey: "profile")
    ///     try transaction.removeValue(forKey: "pending-sign-in")
    /// }
    /// ```
    ///
    /// Reads inside `body` see its own writes. Other callers of this vault wait until `body`
    /// returns: keep it short, and never wait in it for something that needs the vault.
    ///
    /// - Parameter body: The writes; what it returns is returned.
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``, ``VaultError/tampered(_:)``
    ///   as for a single write, or what `body` threw, unchanged; either way nothing `body`
    ///   wrote is stored. A store or removal that failed fails the whole transaction with its
    ///   error, even when `body` caught it and returned.
    public func write<Result>(_ body: (inout VaultTransaction) throws -> Result) throws -> Result {
        try withoutActuallyEscaping(body) { escapable in
            // `body` runs synchronously on this thread under the vault's lock, and nothing of it
            // or of its result is kept in the vault's state: the lock's region checking cannot
            // see that through a generic closure.
            nonisolated(unsafe) let body = escapable
            nonisolated(unsafe) var result: Result?
            nonisolated(unsafe) var bodyError: (any Error)?
            let items: @Sendable (inout ItemSetWriter) throws -> Void = { items in
                var transaction = VaultTransaction(items: items)
                do {
                    result = try body(&transaction)
                } catch {
                    bodyError = error
                    throw error
                }
                if let failure = transaction.failure {
                    bodyError = failure
                    throw failure
                }
                items = transaction.items
            }
            do {
                try state.withLock { state throws(VaultError) in
                    var (session, database) = try verifiedSession(&state)
                    try commit(&session, database: database, items: items)
                    state.session = session
                }
            } catch {
                // What `body` threw rolled the transaction back and reached here as a storage error.
                if let bodyError { throw bodyError }
                throw error
            }
            guard let result else { throw VaultError.storage("the write transaction returned no result") }
            return result
        }
    }

    // MARK: - Coding

    /// `data` decoded from JSON as `Value` (or returned as is for `Data`); `nil` for `nil`.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data?, key: String) throws(VaultError) -> Value? {
        guard let data else { return nil }
        if let raw = data as? Value, Value.self == Data.self { return raw }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .coding("cannot decode \(Value.self) from item \(key.debugDescription): \(error)")
        }
    }

    /// `value` as JSON (a `Data` value as is).
    static func encode<Value: Encodable>(_ value: Value, key: String) throws(VaultError) -> Data {
        if let raw = value as? Data { return raw }
        do {
            return try JSONEncoder.sorted.encode(value)
        } catch {
            throw .coding("cannot encode \(Value.self) for item \(key.debugDescription): \(error)")
        }
    }
}
