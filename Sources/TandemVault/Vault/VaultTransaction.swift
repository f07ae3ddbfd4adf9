import Foundation

/// The items of a vault as one ``Vault/write(_:)`` transaction sees them: what it stores or
/// removes here is written when the transaction's body returns, or not at all.
///
/// ```swift
/// try vault.write { transaction in
///     let count = try transaction.value(Int.self, forKey: "launches") ?? 0
///     try transaction.set(count + 1, forKey: "launches")
/// }
/// ```
///
/// Use it only inside the body it was passed to.
public struct VaultTransaction: ~Copyable {
    var items: ItemSetWriter
    /// The first store or removal that failed: the transaction then commits nothing, even when
    /// its body caught the error and went on (a half-applied write would leave the item set and
    /// its record out of step).
    private(set) var failure: VaultError?
    private var dataKey: DataKey { items.dataKey }

    init(items: ItemSetWriter) {
        self.items = items
    }

    /// The raw bytes stored under `key` (including this transaction's own writes), or `nil`.
    ///
    /// - Throws: ``VaultError/tampered(_:)`` when the stored item was modified,
    ///   ``VaultError/storage(_:)``.
    public func data(forKey key: String) throws(VaultError) -> Data? {
        let id = items.ids.id(for: key, dataKey: dataKey)
        let sealed: Data?
        do {
            sealed = try items.writer.sealedItem(id: id)
        } catch {
            throw VaultDatabase.map(error)
        }
        guard let sealed else { return nil }
        return try dataKey.open(sealed, itemID: id, name: key)
    }

    /// The value stored under `key`, decoded from JSON (or returned as is for `Data`).
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws(VaultError) -> Value? {
        try Vault.decode(Value.self, from: data(forKey: key), key: key)
    }

    /// Stores raw bytes under `key`, replacing any previous value.
    ///
    /// - Throws: ``VaultError/storage(_:)``.
    public mutating func set(_ data: Data, forKey key: String) throws(VaultError) {
        let id = items.ids.id(for: key, dataKey: dataKey)
        try apply(Vault.ItemWrite(id: id, value: data))
    }

    /// Stores `value` under `key` as JSON (a `Data` value is stored as is).
    public mutating func set<Value: Encodable>(_ value: Value, forKey key: String) throws(VaultError) {
        try set(Vault.encode(value, key: key), forKey: key)
    }

    /// Removes the item under `key`; removing a missing item is not an error.
    public mutating func removeValue(forKey key: String) throws(VaultError) {
        try apply(Vault.ItemWrite(id: items.ids.id(for: key, dataKey: dataKey), value: nil))
    }

    private mutating func apply(_ item: Vault.ItemWrite) throws(VaultError) {
        do {
            try items.apply(item)
        } catch {
            let mapped = VaultDatabase.map(error)
            if failure == nil { failure = mapped }
            throw mapped
        }
    }
}
