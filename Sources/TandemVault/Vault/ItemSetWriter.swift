import Foundation

/// Stores and removes items inside one transaction and keeps the item-set record in step, so
/// that binding the set costs no extra page, no extra seal and, with a current
/// ``ItemTagCache``, no extra statement: a store is one upsert of one box that carries its
/// record.
///
/// A store draws the box's nonce first, computes the item's tag from it, and seals the value
/// together with the record that follows the one before (``DataKey/seal(_:itemID:nonce:record:)``).
/// A removal seals its record into `vault_meta`.
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
    /// Whether a write changed the item set (and stored its record).
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
        guard let value = item.value else {
            // A removal returns the nonce of the box it deleted: exact whatever the cache says, and rare.
            guard let removed = try writer.deleteItem(id: item.id) else {
                tags?[item.id] = nil
                return
            }
            let next = record.next(generation: generation, change: dataKey.itemTag(id: item.id, sealed: removed))
            try writer.setMeta(ItemSetRecord.metaKey, try dataKey.sealItemSet(next))
            tags?[item.id] = nil
            advance(to: next)
            return
        }
        let nonce = try DataKey.freshNonce()
        let tag = dataKey.itemTag(id: item.id, nonce: nonce)
        let next = record.next(generation: generation, change: tag.toggling(try replacedTag(of: item.id)))
        let sealed = try dataKey.seal(value, itemID: item.id, nonce: nonce, record: next)
        try writer.putItem(id: item.id, sealed: sealed, sequence: next.sequence)
        // Only once the row is written: a body that catches a failed store and goes on must
        // leave the cache as the file is.
        tags?[item.id] = tag
        advance(to: next)
    }

    /// The tag of the box stored under `id` now (``ItemSetDigest/empty`` when there is none):
    /// from the cache, or read from its row when there is no cache.
    private func replacedTag(of id: Data) throws -> ItemSetDigest {
        if let tags { return tags[id] ?? .empty }
        guard let nonce = try writer.boxNonce(id: id) else { return .empty }
        return dataKey.itemTag(id: id, sealed: nonce)
    }

    private mutating func advance(to next: ItemSetRecord) {
        record = next
        wroteRecord = true
    }
}
