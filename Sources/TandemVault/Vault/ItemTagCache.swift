import Foundation

/// The item-set tag of every stored item as this session last verified or wrote it, by item id,
/// with the ends of the box (nonce and GCM tag) each was computed from.
///
/// A write takes the replaced item's tag from here instead of reading its row first: its upsert
/// returns the ends of the box it really replaced, and when those are not the cached ones (the
/// row changed behind this session) the write corrects its item-set record in the same
/// transaction. The cache is dropped when another connection writes (`PRAGMA data_version`
/// moved) and when a transaction that changed it rolls back; writes then read each replaced
/// row first, as without a cache, until the next unlock builds a new one.
final class ItemTagCache {
    struct Entry {
        /// ``DataKey/boxEnds(of:)`` of the stored box.
        var ends: Data
        /// ``DataKey/itemTag(id:boxEnds:)`` of those ends.
        var tag: ItemSetDigest
    }

    private var entries: [Data: Entry]
    /// `false` once the cache may disagree with the file.
    private(set) var isValid = true

    init(capacity: Int = 0) {
        entries = Dictionary(minimumCapacity: capacity)
    }

    /// The entry of item `id`, `nil` for an item not stored.
    subscript(id: Data) -> Entry? {
        get { entries[id] }
        set { entries[id] = newValue }
    }

    /// Marks the cache as no longer matching the file and frees its entries.
    func invalidate() {
        isValid = false
        entries = [:]
    }
}
