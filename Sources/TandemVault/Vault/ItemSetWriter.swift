import Foundation

/// Stores and removes items inside one transaction and keeps the item-set record in step, so
/// that binding the set costs no extra page and, with a current ``ItemTagCache``, no extra
/// statement: a single store is one upsert that carries its record.
///
/// A store seals the record that follows the one before into the row it writes (a removal into
/// `vault_meta`). In a transaction of several writes (`deferringRecords`), only the last state
/// is ever committed, so only it gets a record: the writes before it store their rows without
/// one, and ``finish()`` seals the transaction's record into the row of its last store (a page
/// the transaction already wrote) or, when it ended with a removal, into `vault_meta`.
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
    /// Whether records wait for ``finish()`` instead of going with each write.
    let deferringRecords: Bool
    /// Whether a write changed the item set (its record is stored, or left to ``finish()``).
    private(set) var wroteRecord = false
    /// Where the record ``finish()`` writes goes: the last store's row, `nil` for `vault_meta`;
    /// `.none` while no record waits.
    private var pendingRecordRow: Data??

    init(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, after record: ItemSetRecord, generation: UInt64?,
        tags: ItemTagCache?, ids: ItemIDCache, deferringRecords: Bool = false
    ) {
        self.writer = writer
        self.dataKey = dataKey
        self.ids = ids
        self.record = record
        self.generation = generation
        self.deferringRecords = deferringRecords
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
            if deferringRecords {
                pendingRecordRow = .some(nil)
            } else {
                try writer.setMeta(ItemSetRecord.metaKey, try dataKey.sealItemSet(next))
            }
            tags?[item.id] = nil
            advance(to: next)
            return
        }
        let tag = dataKey.itemTag(id: item.id, sealed: sealed)
        let next = record.next(generation: generation, change: tag.toggling(try replacedTag(of: item.id)))
        if deferringRecords {
            try writer.putItem(id: item.id, sealed: sealed, sequence: nil, record: nil)
            pendingRecordRow = .some(item.id)
        } else {
            try writer.putItem(id: item.id, sealed: sealed, sequence: next.sequence, record: try dataKey.sealItemSet(next))
        }
        tags?[item.id] = tag
        advance(to: next)
    }

    /// Writes the record a transaction of deferred writes left waiting; does nothing otherwise.
    /// Call it once, after the last write.
    mutating func finish() throws {
        guard case .some(let row) = pendingRecordRow else { return }
        let sealed = try dataKey.sealItemSet(record)
        if let row {
            try writer.setItemRecord(id: row, sequence: record.sequence, record: sealed)
        } else {
            try writer.setMeta(ItemSetRecord.metaKey, sealed)
        }
        pendingRecordRow = nil
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
