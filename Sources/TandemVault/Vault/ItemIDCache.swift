import Foundation

/// The ids of the item names this session used (``DataKey/itemID(for:)``): an app reads and
/// writes a handful of names over and over, and looking one up costs less than its HMAC.
/// Bounded, and dropped with the session when the vault locks.
final class ItemIDCache {
    private var ids: [String: Data] = [:]

    /// The most names kept; past it the cache starts again empty.
    static let capacity = 16_384

    /// The id of the item called `name` under `dataKey`.
    func id(for name: String, dataKey: DataKey) -> Data {
        if let id = ids[name] { return id }
        let id = dataKey.itemID(for: name)
        if ids.count >= Self.capacity { ids.removeAll(keepingCapacity: true) }
        ids[name] = id
        return id
    }
}
