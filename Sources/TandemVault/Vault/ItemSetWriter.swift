import Foundation

/// Stores and removes items inside one transaction, each write sealing the item-set record that
/// follows the one before into the row it writes (or into `vault_meta` for a removal), so that
/// binding the set costs no extra page and, with a current ``ItemTagCache``, no extra statement.
struct ItemSetWriter {
    let writer: VaultDatabase.Writer
    let dataKey: DataKey
    /// The record of the last write (or the file's when none has been made yet).
    private(set) var record: ItemSetRecord
    /// The generation every record written gets; `nil` keeps the current record's.
    let generation: UInt64?
    /// The session's tags, when they match the file; `nil` reads each replaced row first.
    let tags: ItemTagCache?
    /// Whether a write stored a record (one that changed the item set).
    private(set) var wroteRecord = false

    init(_ writer: VaultDatabase.Writer, dataKey: DataKey, after record: ItemSetRecord, generation: UInt64?, tags: ItemTagCache?) {
        self.writer = writer
        self.dataKey = dataKey
        self.record = record
        self.generation = generation
        self.tags = tags.flatMap { $0.isValid ? $0 : nil }
    }

    /// Stores or removes `item`; removing an item that is not stored changes nothing.
    mutating func apply(_ item: Vault.ItemWrite) throws {
        let expected = try storedTag(of: item.id)
        guard let sealed = item.sealed else {
            guard let removed = try writer.deleteItem(id: item.id) else {
                // Nothing stored (whatever the cache said): nothing changes.
                tags?[item.id] = nil
                return
            }
            let tag = (expected.ends == removed ? expected.tag : nil) ?? dataKey.itemTag(id: item.id, boxEnds: removed)
            let next = record.next(generation: generation, change: tag)
            try writer.setMeta(ItemSetRecord.metaKey, try dataKey.sealItemSet(next))
            tags?[item.id] = nil
            advance(to: next)
            return
        }
        let ends = DataKey.boxEnds(of: sealed)
        let tag = dataKey.itemTag(id: item.id, boxEnds: ends)
        var next = record.next(generation: generation, change: tag.toggling(expected.tag ?? .empty))
        let replaced = try writer.putItem(
            id: item.id, sealed: sealed, sequence: next.sequence, record: try dataKey.sealItemSet(next))
        if replaced != expected.ends {
            // The row was not the one the cache knew: seal the record of the box really replaced.
            let replacedTag = replaced.map { dataKey.itemTag(id: item.id, boxEnds: $0) } ?? .empty
            next = record.next(generation: generation, change: tag.toggling(replacedTag))
            try writer.replaceItemRecord(id: item.id, record: try dataKey.sealItemSet(next))
        }
        tags?[item.id] = ItemTagCache.Entry(ends: ends, tag: tag)
        advance(to: next)
    }

    /// The ends and tag of the box stored under `id` as the cache knows it, or read from its row.
    private func storedTag(of id: Data) throws -> (ends: Data?, tag: ItemSetDigest?) {
        if let tags {
            let entry = tags[id]
            return (entry?.ends, entry?.tag)
        }
        guard let ends = try writer.boxEnds(id: id) else { return (nil, nil) }
        return (ends, dataKey.itemTag(id: id, boxEnds: ends))
    }

    private mutating func advance(to next: ItemSetRecord) {
        record = next
        wroteRecord = true
    }
}
