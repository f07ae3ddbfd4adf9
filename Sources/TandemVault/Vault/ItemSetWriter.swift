import Foundation

/// Stores and removes items inside one transaction, each write sealing the item-set record that
/// follows the one before into the row it writes (or into `vault_meta` for a removal), so that
/// binding the set costs no extra page and, with a current ``ItemTagCache``, no extra statement:
/// a store is one upsert.
struct ItemSetWriter {
    let writer: VaultDatabase.Writer
    let dataKey: DataKey
    /// The record of the last write (or the file's when none has been made yet).
    private(set) var record: ItemSetRecord
    /// The generation every record written gets; `nil` keeps the current record's.
    let generation: UInt64?
    /// The session's tags, when they match the file; `nil` reads each replaced row first.
    let tags: ItemTagCache?
    /// The session's ids of item names.
    let ids: ItemIDCache
    /// Whether a write stored a record (one that changed the item set).
    private(set) var wroteRecord = false

    init(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, after record: ItemSetRecord, generation: UInt64?,
        tags: ItemTagCache?, ids: ItemIDCache
    ) {
        self.writer = writer
        self.dataKey = dataKey
        self.ids = ids
        self.record = record
        self.generation = generation
        self.tags = tags.flatMap { $0.isValid ? $0 : nil }
    }

    /// Stores or removes `item`; removing an item that is not stored changes nothing.
    mutating func apply(_ item: Vault.ItemWrite) throws {
        guard let sealed = item.sealed else {
            // A removal returns the box it deleted: exact whatever the cache says, and rare.
            guard let removed = try writer.deleteItem(id: item.id) else {
                tags?[item.id] = nil
                return
            }
            let next = record.next(generation: generation, change: dataKey.itemTag(id: item.id, boxEnds: removed))
            try writer.setMeta(ItemSetRecord.metaKey, try dataKey.sealItemSet(next))
            tags?[item.id] = nil
            advance(to: next)
            return
        }
        let tag = dataKey.itemTag(id: item.id, sealed: sealed)
        let next = record.next(generation: generation, change: tag.toggling(try replacedTag(of: item.id)))
        try writer.putItem(id: item.id, sealed: sealed, sequence: next.sequence, record: try dataKey.sealItemSet(next))
        tags?[item.id] = tag
        advance(to: next)
    }

    /// The tag of the box stored under `id` now (``ItemSetDigest/empty`` when there is none):
    /// from the cache, or read from its row when there is no cache.
    private func replacedTag(of id: Data) throws -> ItemSetDigest {
        if let tags { return tags[id] ?? .empty }
        guard let ends = try writer.boxEnds(id: id) else { return .empty }
        return dataKey.itemTag(id: id, boxEnds: ends)
    }

    private mutating func advance(to next: ItemSetRecord) {
        record = next
        wroteRecord = true
    }
}
