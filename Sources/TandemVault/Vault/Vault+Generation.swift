import Foundation

/// Rollback detection: the vault's generation, sealed in the file together with a digest of
/// its key slots, and mirrored in the host's `SecretStorage`; the item-set record carries the
/// same generation.
extension Vault {
    /// Refuses a vault file that is not the one this device last recorded (another vault's
    /// file put in its place), before any key is tried on it.
    func checkIdentity(storeID: Data) throws(VaultError) {
        guard let data = try secrets.read(keys.generation), let recorded = GenerationRecord(serialized: data) else {
            return
        }
        guard recorded.storeID == storeID else { throw .rolledBack }
    }

    /// Checks the vault's generation against this device's record and starts a session. A vault
    /// of the format before item-set binding is migrated here (see ``migrateItemSet(_:database:)``).
    func openSession(_ dataKey: DataKey, database: VaultDatabase) throws(VaultError) -> Session {
        guard let sealed = try database.sealedGeneration() else { throw .corrupt("the generation record is missing") }
        let (generation, bindsItems) = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try database.slots()))
        if let data = try secrets.read(keys.generation), let recorded = GenerationRecord(serialized: data) {
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

    /// Runs a write: `body` (key slots and the like), then `items` (stores and removals, each
    /// with its item-set record), in one transaction. The first change of a session, every
    /// rewrap, and ``Vault/lock()`` after further changes also raise the generation: durably
    /// inside the vault first (with an item-set record of that generation), then in the
    /// device's record. A transaction that rolls back drops the session's tag cache, which
    /// `items` may have changed.
    func commit(
        _ session: inout Session, database: VaultDatabase, rewrap: Bool = false,
        _ body: (VaultDatabase.Writer) throws -> Void = { _ in },
        items: (inout ItemSetWriter) throws -> Void = { _ in }
    ) throws(VaultError) {
        let dataKey = session.dataKey
        let tags = session.tags
        let itemSet = session.itemSet
        guard rewrap || !session.bumped else {
            let written: ((record: ItemSetRecord, changed: Bool), dataVersion: Int)
            do throws(VaultError) {
                written = try database.write { writer in
                    let current = try currentItemSet(writer, dataKey: dataKey, cached: itemSet, tags: tags)
                    try body(writer)
                    var itemWriter = ItemSetWriter(
                        writer, dataKey: dataKey, after: current.record, generation: nil, tags: tags, ids: session.ids)
                    try items(&itemWriter)
                    return (itemWriter.record, itemWriter.wroteRecord)
                }
            } catch {
                tags?.invalidate()
                throw error
            }
            // The record is current as of this commit, which the version counts.
            session.itemSet = ItemSetRecord.Cached(record: written.0.record, dataVersion: written.dataVersion)
            if written.0.changed { session.dirty = true }
            return
        }
        let sessionGeneration = session.generation
        var next = sessionGeneration + 1
        let written: (ItemSetRecord, dataVersion: Int)
        do throws(VaultError) {
            written = try database.durableWrite { writer in
                // Another instance may have raised the generation since this session began.
                guard let sealed = try writer.sealedGeneration() else { throw VaultError.corrupt("the generation record is missing") }
                let file = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try writer.slots()))
                let current: ItemSetRecord
                if file.bindsItems {
                    current = try currentItemSet(writer, dataKey: dataKey, cached: itemSet, tags: tags).record
                } else {
                    // Rows of an earlier format carry no record in their boxes.
                    tags?.invalidate()
                    try writer.clearItemSequences()
                    current = ItemSetRecord(generation: file.generation, sequence: 0, digest: try digestOfItems(writer, dataKey: dataKey))
                }
                try body(writer)
                next = max(file.generation, sessionGeneration) + 1
                try writer.setMeta("generation", try dataKey.sealGeneration(next, slotDigest: KeySlot.digest(of: try writer.slots())))
                var itemWriter = ItemSetWriter(
                    writer, dataKey: dataKey, after: current, generation: next, tags: tags, ids: session.ids)
                try items(&itemWriter)
                if itemWriter.wroteRecord { return itemWriter.record }
                let raised = current.next(generation: next, change: .empty)
                try writer.setMeta(ItemSetRecord.metaKey, try dataKey.sealItemSet(raised))
                return raised
            }
        } catch {
            tags?.invalidate()
            throw error
        }
        session.generation = next
        session.bumped = true
        session.dirty = false
        session.itemSet = ItemSetRecord.Cached(record: written.0, dataVersion: written.dataVersion)
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
        if let data = try secrets.read(keys.generation), let recorded = GenerationRecord(serialized: data),
            recorded.storeID == storeID, recorded.generation >= generation
        {
            return
        }
        try secrets.write(GenerationRecord(storeID: storeID, generation: generation).serialized, to: keys.generation)
    }
}
