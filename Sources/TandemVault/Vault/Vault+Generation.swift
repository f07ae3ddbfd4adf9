import Foundation

/// Rollback detection: the vault's generation, sealed in the file together with a digest of
/// its key slots, and mirrored in the host's ``SecretStorage``; the item-set record carries the
/// same generation.
extension Vault {
    /// Refuses a vault file that is not the one this device last recorded (another vault's
    /// file put in its place), before any key is tried on it.
    func checkIdentity(storeID: Data) throws(VaultError) {
        guard let data = try secrets.data(forKey: keys.generation), let recorded = GenerationRecord(serialized: data) else {
            return
        }
        guard recorded.storeID == storeID else { throw .rolledBack }
    }

    /// Checks the vault's generation against this device's record and starts a session. A vault
    /// of the format before item-set binding is migrated here (see ``migrateItemSet(_:database:)``).
    func openSession(_ dataKey: DataKey, database: VaultDatabase) throws(VaultError) -> Session {
        guard let sealed = try database.sealedGeneration() else { throw .corrupt("the generation record is missing") }
        let (generation, bindsItems) = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try database.slots()))
        if let data = try secrets.data(forKey: keys.generation), let recorded = GenerationRecord(serialized: data) {
            guard recorded.storeID == dataKey.storeID, generation >= recorded.generation else {
                logger.warning("vault file is older than this device's record", metadata: ["vault": "\(name)"])
                throw .rolledBack
            }
        }
        // A vault ahead of the record is the trace of a crash between the two writes.
        try recordGeneration(generation, storeID: dataKey.storeID)
        var session = Session(dataKey: dataKey, generation: generation)
        if !bindsItems { try migrateItemSet(&session, database: database) }
        return session
    }

    /// Runs a write that changes no item (a rewrap, or nothing at all to raise the generation);
    /// see ``commitItems(_:database:rewrap:_:)``.
    func commit(
        _ session: inout Session, database: VaultDatabase, rewrap: Bool = false,
        _ body: (VaultDatabase.Writer) throws -> Void
    ) throws(VaultError) {
        try commitItems(&session, database: database, rewrap: rewrap) { writer in
            try body(writer)
            return .empty
        }
    }

    /// Runs a write; `body` returns the change it made to the item-set digest, which is
    /// applied to the item-set record in the same transaction. The first change of a session,
    /// every rewrap, and ``Vault/lock()`` after further changes also raise the generation:
    /// durably inside the vault first (with the item-set record), then in the device's record.
    func commitItems(
        _ session: inout Session, database: VaultDatabase, rewrap: Bool = false,
        _ body: (VaultDatabase.Writer) throws -> ItemSetDigest
    ) throws(VaultError) {
        let dataKey = session.dataKey
        var itemSet = session.itemSet
        guard rewrap || !session.bumped else {
            try database.write { writer in
                let change = try body(writer)
                guard change != .empty else { return }
                itemSet = try updateItemSet(writer, dataKey: dataKey, cached: itemSet, change: change)
            }
            session.itemSet = itemSet
            session.dirty = true
            return
        }
        let sessionGeneration = session.generation
        var next = sessionGeneration + 1
        try database.durableWrite { writer in
            // Another instance may have raised the generation since this session began.
            guard let sealed = try writer.sealedGeneration() else { throw VaultError.corrupt("the generation record is missing") }
            let file = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try writer.slots()))
            var digest = try file.bindsItems
                ? storedItemSet(writer, dataKey: dataKey, generation: file.generation).record.digest
                : digestOfItems(writer, dataKey: dataKey)
            digest.toggle(try body(writer))
            next = max(file.generation, sessionGeneration) + 1
            try writer.setMeta("generation", try dataKey.sealGeneration(next, slotDigest: KeySlot.digest(of: try writer.slots())))
            let record = ItemSetRecord(generation: next, digest: digest)
            let sealedRecord = try dataKey.sealItemSet(record)
            try writer.setMeta(ItemSetRecord.metaKey, sealedRecord)
            itemSet = ItemSetRecord.Stored(record: record, sealed: sealedRecord)
        }
        session.generation = next
        session.bumped = true
        session.dirty = false
        session.itemSet = itemSet
        do {
            try recordGeneration(next, storeID: dataKey.storeID)
        } catch {
            // The change is committed; the next unlock sees the vault ahead of the record and
            // repairs it. Failing here would report a committed write as failed.
            logger.warning("vault generation record not updated", metadata: ["vault": "\(name)", "error": "\(error)"])
        }
    }

    /// Raises the device's record to `generation`; it never goes down.
    func recordGeneration(_ generation: UInt64, storeID: Data) throws(VaultError) {
        if let data = try secrets.data(forKey: keys.generation), let recorded = GenerationRecord(serialized: data),
            recorded.storeID == storeID, recorded.generation >= generation
        {
            return
        }
        try secrets.set(GenerationRecord(storeID: storeID, generation: generation).serialized, forKey: keys.generation)
    }
}
