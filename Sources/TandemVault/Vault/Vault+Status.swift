import Foundation

/// What state the vault is in, and destroying it.
extension Vault {
    /// The vault's state, readable while it is locked.
    public func status() throws(VaultError) -> VaultStatus {
        try state.withLock { state throws(VaultError) in
            let database: VaultDatabase
            let header: (storeID: Data, mode: VaultDatabase.Mode)
            do throws(VaultError) {
                database = try self.database(&state)
                header = try database.header()
            } catch .notCreated {
                return VaultStatus(
                    exists: false, protection: nil, isUnlocked: false, extensionAccessEnabled: false,
                    biometricUnlockAllowed: false, biometricUnlockEnabled: false, failedAttempts: 0, failedAttemptsSinceUnlock: 0, remainingAttempts: nil, nextAttemptAllowedAt: nil)
            }
            let paired = try !database.pairedSlotIDs().isEmpty
            guard header.mode == .passcode else {
                return VaultStatus(
                    exists: true, protection: .deviceOnly, isUnlocked: state.session != nil,
                    extensionAccessEnabled: paired, biometricUnlockAllowed: false, biometricUnlockEnabled: false,
                    failedAttempts: 0, failedAttemptsSinceUnlock: 0, remainingAttempts: nil, nextAttemptAllowedAt: nil)
            }
            let policy = try loadPolicy()
            let record = try AttemptRecord.load(from: secrets, key: keys.attempts, policy: policy)
            let biometricsAllowed = biometrics != nil && policy.biometricsAllowed
            var biometricSlot: KeySlot?
            do throws(VaultError) {
                biometricSlot = try liveBiometricSlot(database)
            } catch .tampered {
                // Reported when someone tries to use it; the status only says it does not work.
            }
            return VaultStatus(
                exists: true, protection: .passcode, isUnlocked: state.session != nil,
                extensionAccessEnabled: paired, biometricUnlockAllowed: biometricsAllowed,
                biometricUnlockEnabled: biometricsAllowed && biometricSlot != nil, failedAttempts: record.failures,
                failedAttemptsSinceUnlock: record.failuresSinceUnlock,
                remainingAttempts: max(policy.maximumAttempts - record.failures, 0),
                nextAttemptAllowedAt: record.blockedUntil(at: clock.now)?.until)
        }
    }

    /// Deletes the vault file and the host's secrets for it. The extensions' share becomes
    /// useless (its primary half is gone); remove it too with
    /// `AuxiliaryShare/remove(from:vaultName:)`.
    public func destroy() throws(VaultError) {
        try state.withLock { state throws(VaultError) in try destroy(&state) }
        logger.notice("vault destroyed", metadata: ["vault": "\(name)"])
    }

    func destroy(_ state: inout State) throws(VaultError) {
        state.session = nil
        if let biometrics, let slot = try? database(&state).slot(id: Self.biometricSlotID) {
            try? biometrics.removeSecret(forKey: keys.biometricSecret(id: slot.parameters))
        }
        // Secrets first: without the device secret and the primary share, a file left behind
        // by a failed deletion can never be opened again (and `create` clears it away).
        for key in [keys.deviceSecret, keys.primaryShares, keys.generation, keys.attempts, keys.policy, keys.biometricRevoked] {
            try secrets.remove(key)
        }
        try removeFiles(&state)
    }

    func removeFiles(_ state: inout State) throws(VaultError) {
        if let database = state.database {
            try? database.queue.close()
            state.database = nil
        }
        for suffix in ["", "-wal", "-shm"] {
            let path = fileURL.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw .storage("cannot delete \(path): \(error.localizedDescription)")
            }
        }
    }
}
