import Foundation

/// Rollback detection: the vault's generation, sealed in the file together with a digest of
/// its key slots, and mirrored in the host's ``SecretStorage``.
extension Vault {
    /// Refuses a vault file that is not the one this device last recorded (another vault's
    /// file put in its place), before any key is tried on it.
    func checkIdentity(storeID: Data) throws(VaultError) {
        guard let data = try secrets.data(forKey: keys.generation), let recorded = GenerationRecord(serialized: data) else {
            return
        }
        guard recorded.storeID == storeID else { throw .rolledBack }
    }

    /// Checks the vault's generation against this device's record and starts a session.
    func openSession(_ dataKey: DataKey, database: VaultDatabase) throws(VaultError) -> Session {
        guard let sealed = try database.sealedGeneration() else { throw .corrupt("the generation record is missing") }
        let generation = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try database.slots()))
        if let data = try secrets.data(forKey: keys.generation), let recorded = GenerationRecord(serialized: data) {
            guard recorded.storeID == dataKey.storeID, generation >= recorded.generation else {
                logger.warning("vault file is older than this device's record", metadata: ["vault": "\(name)"])
                throw .rolledBack
            }
        }
        // A vault ahead of the record is the trace of a crash between the two writes.
        try recordGeneration(generation, storeID: dataKey.storeID)
        return Session(dataKey: dataKey, generation: generation)
    }

    /// Runs a write. The first change of a session, every rewrap, and ``Vault/lock()`` after
    /// further changes also raise the generation: durably inside the vault first, then in the
    /// device's record.
    func commit(
        _ session: inout Session, database: VaultDatabase, rewrap: Bool = false,
        _ body: (VaultDatabase.Writer) throws -> Void
    ) throws(VaultError) {
        guard rewrap || !session.bumped else {
            try database.write(body)
            session.dirty = true
            return
        }
        let dataKey = session.dataKey
        let sessionGeneration = session.generation
        var next = sessionGeneration + 1
        try database.durableWrite { writer in
            // Another instance may have raised the generation since this session began.
            var fileGeneration = sessionGeneration
            if let sealed = try writer.sealedGeneration() {
                fileGeneration = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: try writer.slots()))
            }
            try body(writer)
            next = max(fileGeneration, sessionGeneration) + 1
            try writer.setMeta("generation", try dataKey.sealGeneration(next, slotDigest: KeySlot.digest(of: try writer.slots())))
        }
        session.generation = next
        session.bumped = true
        session.dirty = false
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
