import Crypto
import Foundation
import TandemPlatform

/// Opening the vault (by passcode, by the device secret, by the paired key) and locking it.
extension Vault {
    /// Opens a passcode-protected vault.
    ///
    /// Each attempt is counted, with the wait or lockout a failure would bring, before the
    /// passcode is checked, so killing the app during an attempt gives no free guess; a
    /// correct passcode clears them. A failed attempt leaves the vault locked.
    ///
    /// - Throws: ``VaultError/wrongPasscode(remainingAttempts:)``, ``VaultError/throttled(until:)``,
    ///   ``VaultError/lockedOut(until:)``, ``VaultError/wiped``, ``VaultError/rolledBack``,
    ///   ``VaultError/noPasscodeSet``, ``VaultError/notCreated``.
    public func unlock(passcode: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            state.session = nil
            let database = try database(&state)
            let dataKey = try verifyPasscode(passcode, database: database, state: &state)
            var session = try openSession(dataKey, database: database)
            do {
                try removeRevokedBiometricSlot(&session, database: database)
            } catch {
                // The vault is open; the revoked slot opens nothing and goes at a later unlock.
                logger.warning("vault revoked biometric slot not removed", metadata: ["vault": "\(name)", "error": "\(error)"])
            }
            state.session = session
        }
        logger.debug("vault unlocked", metadata: ["vault": "\(name)", "via": "passcode"])
    }

    /// Opens a vault created with ``createWithoutPasscode()``.
    ///
    /// - Throws: ``VaultError/passcodeRequired`` for a passcode vault, ``VaultError/rolledBack``,
    ///   ``VaultError/tampered(_:)``, ``VaultError/notCreated``.
    public func unlock() throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            state.session = nil
            let database = try database(&state)
            let header = try database.header()
            guard header.mode == .device else { throw .passcodeRequired }
            try checkIdentity(storeID: header.storeID)
            guard let slot = try database.slot(id: "device") else { throw .corrupt("the device key slot is missing") }
            let kek = KeyEncryptionKey.device(deviceSecret: try existingDeviceSecret(), storeID: header.storeID)
            guard let dataKey = slot.unwrap(with: kek, storeID: header.storeID) else { throw .tampered("key slot device") }
            state.session = try openSession(dataKey, database: database)
        }
        logger.debug("vault unlocked", metadata: ["vault": "\(name)", "via": "device"])
    }

    /// Opens the vault with an extension's auxiliary share, combined with the primary share
    /// held in the host's secret storage. There is no key derivation, so it is fast enough for
    /// an extension's every request.
    /// A failed attempt leaves the vault locked.
    ///
    /// - Parameter auxiliaryShare: The share sent with an extension's request.
    /// - Throws: ``VaultError/wrongPairedKey`` for a wrong, damaged or rotated-away share,
    ///   ``VaultError/rolledBack``, ``VaultError/notCreated``.
    public func unlock(pairedKey auxiliaryShare: AuxiliaryShare) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            state.session = nil
            let database = try database(&state)
            let header = try database.header()
            try checkIdentity(storeID: header.storeID)
            guard let slot = try database.slot(id: KeySlot.pairedID(keyID: auxiliaryShare.keyID)),
                var primary = try PrimaryShares.load(from: secrets, key: keys.primaryShares)[auxiliaryShare.keyID]
            else { throw .wrongPairedKey }
            var spak = Self.xor(auxiliaryShare.bytes, primary)
            defer {
                primary.resetBytes(in: 0..<primary.count)
                spak.resetBytes(in: 0..<spak.count)
            }
            let kek = KeyEncryptionKey.paired(spak: SymmetricKey(data: spak), storeID: header.storeID)
            guard let dataKey = slot.unwrap(with: kek, storeID: header.storeID) else { throw .wrongPairedKey }
            state.session = try openSession(dataKey, database: database)
        }
        logger.debug("vault unlocked", metadata: ["vault": "\(name)", "via": "pairedKey"])
    }

    /// Forgets the keys; reads and writes throw ``VaultError/locked`` until the next unlock.
    ///
    /// When the session changed items after its first change, the rollback generation is
    /// raised first, so that a copy of the file taken during the session is refused later.
    public func lock() {
        state.withLock { state in
            if var session = state.session, session.dirty, let database = state.database {
                do {
                    try commit(&session, database: database, rewrap: true)
                } catch {
                    logger.warning("vault generation not raised at lock", metadata: ["vault": "\(name)", "error": "\(error)"])
                }
            }
            state.session = nil
        }
    }

    /// Whether this instance holds the keys.
    public var isUnlocked: Bool { state.withLock { $0.session != nil } }
}
