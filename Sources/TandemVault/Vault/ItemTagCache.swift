import Foundation

/// The item-set tag (``DataKey/itemTag(id:sealed:)``) of every stored item as this session last
/// verified or wrote it, by item id.
///
/// A store takes the replaced item's tag from here instead of reading its row first, so that it
/// is one upsert. The cache holds only while this session's connection is the only writer: it is
/// dropped when another connection commits (the file's data version moved, checked by every
/// write transaction) and when a transaction that changed it rolls back. Writes then read each
/// replaced row first, as without a cache, until the next unlock builds a new one from the rows
/// it checks against the item-set record.
final class ItemTagCache {
    private var entries: [Key: ItemSetDigest]
    /// `false` once the cache may disagree with the file.
    private(set) var isValid = true

    init(capacity: Int = 0) {
        entries = Dictionary(minimumCapacity: capacity)
    }

    /// The tag of item `id`, `nil` for an item not stored.
    subscript(id: Data) -> ItemSetDigest? {
        get { entries[Key(id)] }
        set { entries[Key(id)] = newValue }
    }

    /// Marks the cache as no longer matching the file and frees its entries.
    func invalidate() {
        isValid = false
        entries = [:]
    }

    /// An item id as a dictionary key: a stored id (``DataKey/itemIDLength``, 16 bytes) as two
    /// words, which hash and compare without touching a `Data`; any other length (only a
    /// modified file has one) as its bytes.
    private enum Key: Hashable {
        case id(UInt64, UInt64)
        case other(Data)

        init(_ id: Data) {
            guard id.count == DataKey.itemIDLength else {
                self = .other(id)
                return
            }
            self = id.withUnsafeBytes { raw in
                .id(raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
    }
}
