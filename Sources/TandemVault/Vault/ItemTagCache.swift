import Foundation

/// The item-set tag (``DataKey/itemTag(id:sealed:)``) of every stored item as this session last
/// verified or wrote it, by item id.
///
/// A store takes the replaced item's tag from here instead of reading its row first, so that it
/// is one upsert. The cache holds only while this session's connection is the only writer: it is
/// dropped when another connection commits (`PRAGMA data_version` moved, checked by every write
/// transaction) and when a transaction that changed it rolls back. Writes then read each
/// replaced row first, as without a cache, until the next unlock builds a new one from the rows
/// it checks against the item-set record.
final class ItemTagCache {
    private var entries: [Data: ItemSetDigest]
    /// `false` once the cache may disagree with the file.
    private(set) var isValid = true

    init(capacity: Int = 0) {
        entries = Dictionary(minimumCapacity: capacity)
    }

    /// The tag of item `id`, `nil` for an item not stored.
    subscript(id: Data) -> ItemSetDigest? {
        get { entries[id] }
        set { entries[id] = newValue }
    }

    /// Marks the cache as no longer matching the file and frees its entries.
    func invalidate() {
        isValid = false
        entries = [:]
    }
}
