import Foundation

/// Binding the item set: a keyed digest over every stored item, sealed with the generation,
/// kept up to date by every write and checked once per session before the first item is used.
extension Vault {
    /// The unlocked session, with the stored items checked against the item-set digest if this
    /// session has not done so yet.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/tampered(_:)`` of `"the item set"` when an
    ///   item was put back, removed, added or moved outside the vault.
    func verifiedSession(_ state: inout State) throws(VaultError) -> (Session, VaultDatabase) {
        guard var session = state.session, let database = state.database else { throw .locked }
        guard !session.itemsVerified else { return (session, database) }
        let dataKey = session.dataKey
        session.itemSet = try database.inspect { writer in
            guard let sealed = try writer.sealedGeneration() else { throw VaultError.corrupt("the generation record is missing") }
            let file = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try writer.slots()))
            guard file.bindsItems else { throw VaultError.tampered("the item set") }
            let stored = try storedItemSet(writer, dataKey: dataKey, generation: file.generation)
            guard try digestOfItems(writer, dataKey: dataKey) == stored.record.digest else {
                throw VaultError.tampered("the item set")
            }
            return stored
        }
        session.itemsVerified = true
        state.session = session
        return (session, database)
    }

    /// Stores (`sealed` not `nil`) or removes the item `id` and returns the change to the
    /// item-set digest: the old box's tag out, the new one's in.
    func changeItem(_ writer: VaultDatabase.Writer, dataKey: DataKey, id: Data, sealed: Data?) throws -> ItemSetDigest {
        var change = ItemSetDigest.empty
        if let old = try writer.sealedItem(id: id) {
            change.toggle(dataKey.itemTag(id: id, sealed: old))
            if sealed == nil { try writer.deleteItem(id: id) }
        }
        if let sealed {
            try writer.putItem(id: id, sealed: sealed)
            change.toggle(dataKey.itemTag(id: id, sealed: sealed))
        }
        return change
    }

    /// Migrates a vault written before item-set binding: the digest of the items as they are
    /// is sealed with a raised generation, so the earlier, unbound generation record is refused
    /// as a rollback from then on.
    func migrateItemSet(_ session: inout Session, database: VaultDatabase) throws(VaultError) {
        try commit(&session, database: database, rewrap: true) { _ in }
        session.itemsVerified = true
        logger.notice("vault migrated to item-set binding", metadata: ["vault": "\(name)"])
    }

    // MARK: - Internals

    /// Applies `change` to the item-set record. When the stored record is still the one this
    /// session last saw (`cached`), one conditional update does it without reading it first.
    func updateItemSet(
        _ writer: VaultDatabase.Writer, dataKey: DataKey, cached: ItemSetRecord.Stored?, change: ItemSetDigest
    ) throws -> ItemSetRecord.Stored {
        if let cached {
            let record = ItemSetRecord(generation: cached.record.generation, digest: cached.record.digest.toggling(change))
            let sealed = try dataKey.sealItemSet(record)
            if try writer.replaceMeta(ItemSetRecord.metaKey, with: sealed, ifEqualTo: cached.sealed) {
                return ItemSetRecord.Stored(record: record, sealed: sealed)
            }
        }
        guard let stored = try writer.meta(ItemSetRecord.metaKey) else { throw VaultError.tampered("the item set") }
        let current = try dataKey.openItemSet(stored)
        let record = ItemSetRecord(generation: current.generation, digest: current.digest.toggling(change))
        let sealed = try dataKey.sealItemSet(record)
        try writer.setMeta(ItemSetRecord.metaKey, sealed)
        return ItemSetRecord.Stored(record: record, sealed: sealed)
    }

    /// The stored item-set record, which must belong to the file's `generation`.
    func storedItemSet(_ writer: VaultDatabase.Writer, dataKey: DataKey, generation: UInt64) throws -> ItemSetRecord.Stored {
        guard let sealed = try writer.meta(ItemSetRecord.metaKey) else { throw VaultError.tampered("the item set") }
        let record = try dataKey.openItemSet(sealed)
        guard record.generation == generation else { throw VaultError.tampered("the item set") }
        return ItemSetRecord.Stored(record: record, sealed: sealed)
    }

    /// The digest of the items stored now.
    func digestOfItems(_ writer: VaultDatabase.Writer, dataKey: DataKey) throws -> ItemSetDigest {
        var digest = ItemSetDigest.empty
        try writer.forEachItem { id, sealed in digest.toggle(dataKey.itemTag(id: id, sealed: sealed)) }
        return digest
    }
}
