import Foundation

/// Binding the item set: a keyed digest over every stored item, sealed with the generation into
/// an item-set record by every write, and checked once per session before the first item is used.
extension Vault {
    /// An item to store (`value` not `nil`) or remove, written (and sealed) by
    /// ``ItemSetWriter/apply(_:)``.
    struct ItemWrite {
        var id: Data
        var value: Data?
    }

    /// The unlocked session, with the stored items checked against the item-set record if this
    /// session has not done so yet.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/tampered(_:)`` of `"the item set"` when an
    ///   item was put back, removed, added or moved outside the vault.
    func verifiedSession(_ state: inout State) throws(VaultError) -> (Session, VaultDatabase) {
        guard var session = state.session, let database = state.database else { throw .locked }
        guard !session.itemsVerified else { return (session, database) }
        let dataKey = session.dataKey
        (session.itemSet, session.tags) = try database.inspect { writer in
            guard let sealed = try writer.sealedGeneration() else { throw VaultError.corrupt("the generation record is missing") }
            let file = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try writer.slots()))
            guard file.bindsItems else { throw VaultError.tampered("the item set") }
            var digest = ItemSetDigest.empty
            var latest: VaultDatabase.StoredItem?
            let tags = ItemTagCache()
            try writer.forEachItem { item in
                let tag = dataKey.itemTag(id: item.id, sealed: item.sealed)
                digest.toggle(tag)
                tags[item.id] = tag
                if let sequence = item.sequence, sequence > latest?.sequence ?? .min { latest = item }
            }
            let record = try latestRecord(writer, dataKey: dataKey, row: latest)
            guard record.generation == file.generation, record.digest == digest else { throw VaultError.tampered("the item set") }
            return (ItemSetRecord.Cached(record: record, dataVersion: try writer.dataVersion()), tags)
        }
        session.itemsVerified = true
        state.session = session
        return (session, database)
    }

    /// Migrates a vault written before item-set binding, or in its first form: the digest of
    /// the items as they are is sealed with a raised generation, so the earlier generation
    /// record is refused as a rollback from then on.
    func migrateItemSet(_ session: inout Session, database: VaultDatabase) throws(VaultError) {
        try commit(&session, database: database, rewrap: true)
        session.itemsVerified = true
        logger.notice("vault migrated to item-set binding", metadata: ["vault": "\(name)"])
    }

    // MARK: - Internals

    /// The item-set record as the file holds it now: `cached` while no other connection has
    /// written since (the file's data version, without a statement), otherwise read again — and then `tags`, the
    /// session's knowledge of the rows, no longer counts.
    func currentItemSet(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, cached: ItemSetRecord.Cached?, tags: ItemTagCache?
    ) throws -> ItemSetRecord.Cached {
        let version = try writer.dataVersion()
        if let cached, cached.dataVersion == version { return cached }
        tags?.invalidate()
        return ItemSetRecord.Cached(record: try latestRecord(writer, dataKey: dataKey, row: try writer.latestItem()), dataVersion: version)
    }

    /// The record that counts: the later of the one in `vault_meta` and the one in `row`'s box,
    /// the item row with the highest `item_seq`. A box whose record's sequence is not its row's
    /// `item_seq` is tampering.
    func latestRecord(_ writer: VaultDatabase.Writer, dataKey: DataKey, row: VaultDatabase.StoredItem?) throws -> ItemSetRecord {
        guard let sealed = try writer.meta(ItemSetRecord.metaKey) else { throw VaultError.tampered("the item set") }
        let stored = try dataKey.openItemSet(sealed)
        guard let row, let sequence = row.sequence else { return stored }
        let inRow = try dataKey.openRecord(row.sealed, itemID: row.id)
        guard UInt64(exactly: sequence) == inRow.sequence, inRow.sequence != stored.sequence else {
            throw VaultError.tampered("the item set")
        }
        return inRow.sequence > stored.sequence ? inRow : stored
    }

    /// The digest of the items stored now.
    func digestOfItems(_ writer: VaultDatabase.Writer, dataKey: DataKey) throws -> ItemSetDigest {
        var digest = ItemSetDigest.empty
        try writer.forEachItem { item in digest.toggle(dataKey.itemTag(id: item.id, sealed: item.sealed)) }
        return digest
    }
}
