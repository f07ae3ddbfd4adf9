import Crypto
import Foundation
import TandemPlatform

/// Face ID / Touch ID: a key slot whose secret the ``BiometricSecretStore`` releases only after
/// a biometric check, as the passcode's alternative when the policy allows it.
extension Vault {
    static let biometricSlotID = "biometric"
    private static let biometricSecretIDLength = 16

    /// Lets Face ID or Touch ID open the vault: stores a new random secret in the vault's
    /// ``BiometricSecretStore`` and wraps the data key under a key derived from it and the device
    /// secret, in one transaction. Calling it again replaces the secret.
    ///
    /// The vault must be unlocked (by the passcode: the user proves they know it before a face
    /// stands in for it). Nothing is asked of the user here; an app usually asks "Use Face ID to
    /// unlock?" first.
    ///
    /// ```swift
    /// try vault.unlock(passcode: entered)
    /// if try vault.status().biometricUnlockAllowed, await userAgrees() {
    ///     try vault.enableBiometricUnlock()
    /// }
    /// ```
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/noPasscodeSet`` (a vault that opens without
    ///   asking needs no alternative), ``VaultError/biometricsNotAllowed`` (the policy),
    ///   ``VaultError/biometricsUnavailable`` (no biometry, none enrolled, no device passcode, or
    ///   no store given to the vault), ``VaultError/biometricsLockedOut``.
    public func enableBiometricUnlock() throws(VaultError) {
        guard let biometrics else { throw .biometricsUnavailable }
        try state.withLock { state throws(VaultError) in
            guard var session = state.session, let database = state.database else { throw .locked }
            guard try database.header().mode == .passcode else { throw .noPasscodeSet }
            guard try loadPolicy().biometricsAllowed else { throw .biometricsNotAllowed }
            let previous = try database.slot(id: Self.biometricSlotID)
            let secretID = Data.random(count: Self.biometricSecretIDLength)
            var secret = Data.random(count: 32)
            var deviceSecret = try existingDeviceSecret()
            defer {
                secret.resetBytes(in: 0..<secret.count)
                deviceSecret.resetBytes(in: 0..<deviceSecret.count)
            }
            // 1. The store learns the new secret under a name of its own: the current slot, if
            //    any, keeps opening with its own secret until the transaction below commits.
            let key = keys.biometricSecret(id: secretID)
            do throws(BiometricSecretStoreError) {
                try biometrics.set(secret, forKey: key)
            } catch {
                throw VaultError(error)
            }
            let kek = KeyEncryptionKey.biometric(secret: secret, deviceSecret: deviceSecret, storeID: session.dataKey.storeID)
            let slot = try KeySlot.wrap(session.dataKey, id: Self.biometricSlotID, kind: .biometric, parameters: secretID, kek: kek)
            // 2. The slot is put in place (or replaces the previous one) in one transaction.
            do throws(VaultError) {
                try commit(&session, database: database, rewrap: true) { try $0.putSlot(slot) }
            } catch {
                try? biometrics.removeSecret(forKey: key)
                throw error
            }
            state.session = session
            // 3. What the previous slot left behind goes.
            try secrets.remove(keys.biometricRevoked)
            if let previous { try? biometrics.removeSecret(forKey: keys.biometricSecret(id: previous.parameters)) }
        }
        logger.info("vault biometric unlock enabled", metadata: ["vault": "\(name)"])
    }

    /// Opens the vault after Face ID or Touch ID: the ``BiometricSecretStore`` shows the system's
    /// prompt and releases the biometric slot's secret. A failed attempt leaves the vault locked
    /// and changes nothing, except when the enrolment changed: then the biometric way in is
    /// revoked (its slot goes at the next passcode unlock) and the caller must ask for the passcode.
    ///
    /// Nothing is shown to the user when biometric unlock is not enabled, not allowed, or its
    /// slot fails its check: those are thrown before the prompt.
    ///
    /// A biometric unlock neither spends nor gives back passcode attempts: the policy's count of
    /// wrong passcodes goes on until a correct passcode. It returns the wrong passcodes entered
    /// since the user last opened the vault (by either way in) and starts that count again; tell
    /// the user when there were any (``VaultStatus/failedAttemptsSinceUnlock`` has the same count
    /// before the unlock).
    ///
    /// ```swift
    /// do {
    ///     let failed = try await vault.unlock(biometricsReason: "Unlock your account")
    ///     if failed.count > 0 { await tellUser(failed) }
    /// } catch .biometricsChanged {
    ///     try vault.unlock(passcode: await askPasscode())
    ///     offerBiometricUnlockAgain()
    /// } catch {
    ///     try vault.unlock(passcode: await askPasscode())
    /// }
    /// ```
    ///
    /// - Parameter reason: Why the app asks, shown in the system prompt.
    /// - Returns: The wrong passcodes entered since the user last opened the vault.
    /// - Throws: ``VaultError/biometricsCancelled``, ``VaultError/biometricsChanged``,
    ///   ``VaultError/biometricsUnavailable``, ``VaultError/biometricsLockedOut``,
    ///   ``VaultError/biometricsNotEnabled``, ``VaultError/biometricsNotAllowed``,
    ///   ``VaultError/tampered(_:)`` (`"key slot biometric"`), ``VaultError/noPasscodeSet``,
    ///   ``VaultError/rolledBack``, ``VaultError/notCreated``.
    @discardableResult
    public func unlock(biometricsReason reason: String) async throws(VaultError) -> FailedPasscodeAttempts {
        guard let biometrics else { throw .biometricsUnavailable }
        let secretID = try state.withLock { state throws(VaultError) -> Data in
            state.session = nil
            let database = try database(&state)
            let header = try database.header()
            guard header.mode == .passcode else { throw .noPasscodeSet }
            try checkIdentity(storeID: header.storeID)
            guard try loadPolicy().biometricsAllowed else { throw .biometricsNotAllowed }
            guard let slot = try liveBiometricSlot(database) else { throw .biometricsNotEnabled }
            return slot.parameters
        }
        var secret: Data
        do throws(BiometricSecretStoreError) {
            secret = try await biometrics.secret(forKey: keys.biometricSecret(id: secretID), reason: reason)
        } catch .biometryChanged {
            try revokeBiometricSecret(id: secretID, store: biometrics)
            logger.notice("vault biometric secret gone (enrolment changed): passcode needed", metadata: ["vault": "\(name)"])
            throw .biometricsChanged
        } catch {
            throw VaultError(error)
        }
        defer { secret.resetBytes(in: 0..<secret.count) }
        let failed = try state.withLock { state throws(VaultError) -> FailedPasscodeAttempts in
            state.session = nil
            let database = try database(&state)
            let header = try database.header()
            try checkIdentity(storeID: header.storeID)
            // The slot may have been replaced or removed while the user looked at the prompt.
            guard let slot = try liveBiometricSlot(database), slot.parameters == secretID else { throw .biometricsNotEnabled }
            var deviceSecret = try existingDeviceSecret()
            defer { deviceSecret.resetBytes(in: 0..<deviceSecret.count) }
            let kek = KeyEncryptionKey.biometric(secret: secret, deviceSecret: deviceSecret, storeID: header.storeID)
            guard let dataKey = slot.unwrap(with: kek, storeID: header.storeID) else { throw .tampered("key slot biometric") }
            let session = try openSession(dataKey, database: database)
            let failed = try takeFailedAttemptsSinceUnlock()
            state.session = session
            return failed
        }
        logger.debug("vault unlocked", metadata: ["vault": "\(name)", "via": "biometrics", "failedPasscodes": "\(failed.count)"])
        return failed
    }

    /// Stops Face ID or Touch ID from opening the vault: its secret is removed from the
    /// ``BiometricSecretStore`` at once, and its slot too when the vault is unlocked (otherwise at
    /// the next passcode unlock). Disabling when it is not enabled does nothing.
    ///
    /// - Throws: ``VaultError/notCreated``, ``VaultError/secretStorage(_:)``.
    public func disableBiometricUnlock() throws(VaultError) {
        try state.withLock { state throws(VaultError) in try revokeBiometricUnlock(&state) }
        logger.info("vault biometric unlock disabled", metadata: ["vault": "\(name)"])
    }

    /// Replaces the stored passcode policy, as when the server's policy for the app changed. Its
    /// attempt rules apply from the next attempt; its passcode rules at the next passcode change.
    /// A policy that no longer allows biometrics revokes biometric unlock as
    /// ``disableBiometricUnlock()`` does.
    ///
    /// - Throws: ``VaultError/noPasscodeSet``, ``VaultError/notCreated``,
    ///   ``VaultError/secretStorage(_:)``.
    public func updatePolicy(_ policy: PasscodePolicy) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard try database(&state).header().mode == .passcode else { throw .noPasscodeSet }
            try savePolicy(policy)
            if !policy.biometricsAllowed { try revokeBiometricUnlock(&state) }
        }
        logger.info("vault passcode policy updated", metadata: ["vault": "\(name)", "biometrics": "\(policy.biometricsAllowed)"])
    }

    // MARK: - Internals

    /// The wrong passcodes since the user last opened the vault, whose count starts again here;
    /// the policy's own count (delays, lockout, wipe) stays as it is.
    private func takeFailedAttemptsSinceUnlock() throws(VaultError) -> FailedPasscodeAttempts {
        let policy = try loadPolicy()
        var record = try AttemptRecord.load(from: secrets, key: keys.attempts, policy: policy)
        let failed = FailedPasscodeAttempts(
            count: record.failuresSinceUnlock, remainingAttempts: max(policy.maximumAttempts - record.failures, 0), onLimit: policy.onLimit)
        guard failed.count > 0 else { return failed }
        record.sinceUnlock = 0
        do {
            try record.save(to: secrets, key: keys.attempts)
        } catch {
            // The vault opens all the same; the user is told of these attempts again next time.
            logger.warning("vault count of wrong passcodes not restarted", metadata: ["vault": "\(name)", "error": "\(error)"])
        }
        return failed
    }

    /// The biometric slot, unless its secret was revoked; `nil` when there is none.
    func liveBiometricSlot(_ database: VaultDatabase) throws(VaultError) -> KeySlot? {
        guard let slot = try database.slot(id: Self.biometricSlotID) else { return nil }
        guard slot.kind == .biometric, slot.parameters.count == Self.biometricSecretIDLength else {
            throw .tampered("key slot biometric")
        }
        guard try secrets.read(keys.biometricRevoked) != slot.parameters else { return nil }
        return slot
    }

    /// Removes the biometric secret, and the slot when the vault is unlocked; a locked vault
    /// remembers the slot as revoked, to be removed at its next passcode unlock.
    private func revokeBiometricUnlock(_ state: inout State) throws(VaultError) {
        let database = try database(&state)
        guard let slot = try database.slot(id: Self.biometricSlotID) else {
            try secrets.remove(keys.biometricRevoked)
            return
        }
        if let biometrics { try revokeBiometricSecret(id: slot.parameters, store: biometrics) } else {
            try secrets.write(slot.parameters, to: keys.biometricRevoked)
        }
        guard var session = state.session else { return }
        try removeRevokedBiometricSlot(&session, database: database)
        state.session = session
    }

    /// Marks the slot whose secret is `id` as revoked, then removes the secret: from then on
    /// the slot opens nothing, whatever happens next.
    private func revokeBiometricSecret(id: Data, store: any BiometricSecretStore) throws(VaultError) {
        try secrets.write(id, to: keys.biometricRevoked)
        do throws(BiometricSecretStoreError) {
            try store.removeSecret(forKey: keys.biometricSecret(id: id))
        } catch {
            throw VaultError(error)
        }
    }

    /// Removes a revoked biometric slot from an unlocked vault (a rewrap: the generation is
    /// raised, so the earlier file with the slot is refused as a rollback).
    func removeRevokedBiometricSlot(_ session: inout Session, database: VaultDatabase) throws(VaultError) {
        guard let revoked = try secrets.read(keys.biometricRevoked) else { return }
        if let slot = try database.slot(id: Self.biometricSlotID), slot.parameters == revoked {
            try commit(&session, database: database, rewrap: true) { try $0.deleteSlots(kind: .biometric, except: []) }
            logger.info("vault biometric slot removed", metadata: ["vault": "\(name)"])
        }
        try secrets.remove(keys.biometricRevoked)
    }
}

extension VaultError {
    /// The vault's case for a failure of its ``BiometricSecretStore``.
    public init(_ error: BiometricSecretStoreError) {
        switch error {
        case .cancelled: self = .biometricsCancelled
        case .biometryChanged: self = .biometricsChanged
        case .unavailable: self = .biometricsUnavailable
        case .lockedOut: self = .biometricsLockedOut
        case .failed(let reason): self = .secretStorage(reason)
        }
    }
}
