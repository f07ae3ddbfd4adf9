import Crypto
import Foundation
import TandemPlatform

extension Vault {
    /// Lets extensions open the vault: creates a paired access key, wraps the data key under it,
    /// puts the auxiliary share into `shared` (the storage extensions read) and the primary
    /// share into the host's storage. Works on any existing vault, unlocked once, with no
    /// passcode change — so a widget can be added to an app that has already shipped.
    ///
    /// Calling it when extension access already works does nothing, so it is safe to call at
    /// every launch; use ``rotatePairedKey(shared:)`` to replace the key.
    ///
    /// - Parameter shared: The secret storage shared with the extensions.
    /// - Throws: ``VaultError/locked``, ``VaultError/secretStorage(_:)``.
    public func enableExtensionAccess(shared: any SecretStorage) throws(VaultError) {
        let installed = try state.withLock { state throws(VaultError) in
            guard let session = state.session, let database = state.database else { throw .locked }
            let current = try currentShare(in: shared)
            if let current, try opens(current, dataKey: session.dataKey, database: database) { return false }
            try installPairedKey(replacing: current, shared: shared, state: &state)
            return true
        }
        if installed { logger.info("vault extension access enabled", metadata: ["vault": "\(name)"]) }
    }

    /// Replaces the paired access key: the extensions' current share stops working and a new
    /// one is put into `shared`. The data key is rewrapped; items are untouched.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/extensionAccessNotEnabled``.
    public func rotatePairedKey(shared: any SecretStorage) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard state.session != nil else { throw .locked }
            guard let current = try currentShare(in: shared) else { throw .extensionAccessNotEnabled }
            try installPairedKey(replacing: current, shared: shared, state: &state)
        }
        logger.info("vault paired key rotated", metadata: ["vault": "\(name)"])
    }

    /// Removes extension access: the auxiliary share in `shared` first (so an extension never
    /// holds a share that opens nothing while the vault still has its slot), then the paired
    /// key slots and the primary share.
    ///
    /// - Throws: ``VaultError/locked``.
    public func disableExtensionAccess(shared: any SecretStorage) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard var session = state.session, let database = state.database else { throw .locked }
            try shared.remove(keys.auxiliaryShare)
            try commit(&session, database: database, rewrap: true) { try $0.deleteSlots(kind: .paired, except: []) }
            state.session = session
            try secrets.remove(keys.primaryShares)
        }
        logger.info("vault extension access disabled", metadata: ["vault": "\(name)"])
    }

    // MARK: - Internals

    /// The share extensions hold now; an unreadable storage is an error, an unparsable share
    /// is treated as none (it could open nothing anyway).
    private func currentShare(in shared: any SecretStorage) throws(VaultError) -> AuxiliaryShare? {
        do throws(SecretStorageError) {
            return try AuxiliaryShare.load(from: shared, vaultName: name)
        } catch .malformedShare {
            return nil
        } catch {
            throw VaultError(error)
        }
    }

    /// Whether `share` and the host's primary share open this vault.
    private func opens(_ share: AuxiliaryShare, dataKey: DataKey, database: VaultDatabase) throws(VaultError) -> Bool {
        guard let slot = try database.slot(id: KeySlot.pairedID(keyID: share.keyID)),
            var primary = try PrimaryShares.load(from: secrets, key: keys.primaryShares)[share.keyID]
        else { return false }
        var spak = Self.xor(share.bytes, primary)
        defer {
            primary.resetBytes(in: 0..<primary.count)
            spak.resetBytes(in: 0..<spak.count)
        }
        let kek = KeyEncryptionKey.paired(spak: SymmetricKey(data: spak), storeID: dataKey.storeID)
        return slot.unwrap(with: kek, storeID: dataKey.storeID) != nil
    }

    /// Installs a new paired key in an order that a crash at any step cannot break: the vault
    /// keeps opening with the share the extensions hold at that moment, old or new.
    private func installPairedKey(replacing current: AuxiliaryShare?, shared: any SecretStorage, state: inout State) throws(VaultError) {
        guard var session = state.session, let database = state.database else { throw .locked }
        var spak = Data.random(count: 32)
        let auxiliary: AuxiliaryShare
        do {
            auxiliary = try AuxiliaryShare(keyID: Data.random(count: 16), bytes: Data.random(count: 32))
        } catch {
            throw VaultError(error)
        }
        var primary = Self.xor(spak, auxiliary.bytes)
        defer {
            spak.resetBytes(in: 0..<spak.count)
            primary.resetBytes(in: 0..<primary.count)
        }
        let kek = KeyEncryptionKey.paired(spak: SymmetricKey(data: spak), storeID: session.dataKey.storeID)
        let newID = KeySlot.pairedID(keyID: auxiliary.keyID)
        let slot = try KeySlot.wrap(session.dataKey, id: newID, kind: .paired, parameters: Data(), kek: kek)
        let currentIDs: Set<String> = current.map { [KeySlot.pairedID(keyID: $0.keyID)] } ?? []

        // 1. The host learns the new primary share (keeping the current one).
        var primaries = try PrimaryShares.load(from: secrets, key: keys.primaryShares)
            .keeping(Set(current.map { [$0.keyID] } ?? []))
        primaries[auxiliary.keyID] = primary
        try secrets.write(primaries.serialized, to: keys.primaryShares)
        // 2. The vault gets the new slot beside the current one; leftovers of crashed rotations go.
        try commit(&session, database: database, rewrap: true) { writer in
            try writer.deleteSlots(kind: .paired, except: currentIDs)
            try writer.putSlot(slot)
        }
        state.session = session
        // 3. Extensions switch to the new share: the one atomic step they can observe.
        try shared.write(auxiliary.serialized, to: keys.auxiliaryShare)
        // 4. The old way in is removed from the vault and from the host.
        try commit(&session, database: database, rewrap: true) { try $0.deleteSlots(kind: .paired, except: [newID]) }
        state.session = session
        try secrets.write(primaries.keeping([auxiliary.keyID]).serialized, to: keys.primaryShares)
    }
}
