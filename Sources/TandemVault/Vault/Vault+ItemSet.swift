import Foundation

/// Binding the item set: a keyed digest over every stored item, sealed with the generation into
/// an item-set record by every write, and checked once per session before the first item is used.
extension Vault {
    /// An item to store (`sealed` not `nil`) or remove, written by ``ItemSetWriter/apply(_:)``.
    struct ItemWrite {
        var id: Data
        var sealed: Data?
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
            var latest: (sequence: Int64, sealed: Data?)?
            let tags = ItemTagCache()
            try writer.forEachItem { item in
                let tag = dataKey.itemTag(id: item.id, sealed: item.sealed)
                digest.toggle(tag)
                tags[item.id] = tag
                if let sequence = item.sequence, sequence > latest?.sequence ?? .min { latest = (sequence, item.record) }
            }
            let record = try latestRecord(writer, dataKey: dataKey, row: latest)
            guard record.generation == file.generation, record.digest == digest else { throw VaultError.tampered("the item set") }
            return (ItemSetRecord.Cached(record: record, dataVersion: try writer.dataVersion()), tags)
        }
        session.itemsVerified = true
        state.session = session
        return (session, database)
    }

    /// Migrates a vault written before item-set binding: the digest of the items as they are
    /// is sealed with a raised generation, so the earlier, unbound generation record is refused
    /// as a rollback from then on.
    func migrateItemSet(_ session: inout Session, database: VaultDatabase) throws(VaultError) {
        try commit(&session, database: database, rewrap: true)
        session.itemsVerified = true
        logger.notice("vault migrated to item-set binding", metadata: ["vault": "\(name)"])
    }

    // MARK: - Internals

    /// The item-set record as the file holds it now: `cached` while no other connection has
    /// written since (one `PRAGMA data_version`), otherwise read again — and then `tags`, the
    /// session's knowledge of the rows, no longer counts.
    func currentItemSet(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, cached: ItemSetRecord.Cached?, tags: ItemTagCache?
    ) throws -> ItemSetRecord.Cached {
        let version = try writer.dataVersion()
        if let cached, cached.dataVersion == version { return cached }
        tags?.invalidate()
        let row = try writer.latestItemRecord()
        return ItemSetRecord.Cached(
            record: try latestRecord(writer, dataKey: dataKey, row: row.map { ($0.sequence, $0.sealed) }), dataVersion: version)
    }

    /// The record that counts: the later of the one in `vault_meta` and `row`'s, the one in the
    /// item row with the highest `item_seq`. A row record whose sealed sequence is not its
    /// `item_seq` is tampering.
    func latestRecord(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, row: (sequence: Int64, sealed: Data?)?
    ) throws -> ItemSetRecord {
        guard let sealed = try writer.meta(ItemSetRecord.metaKey) else { throw VaultError.tampered("the item set") }
        let stored = try dataKey.openItemSet(sealed)
        guard let row else { return stored }
        guard let sealedRow = row.sealed else { throw VaultError.tampered("the item set") }
        let inRow = try dataKey.openItemSet(sealedRow)
        guard UInt64(exactly: row.sequence) == inRow.sequence, inRow.sequence != stored.sequence else {
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
