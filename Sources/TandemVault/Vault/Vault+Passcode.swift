import Foundation

extension Vault {
    /// Replaces the passcode. Only the passcode's key slot changes, in one transaction: a crash
    /// leaves the vault openable with the old passcode or the new one.
    ///
    /// The old passcode is checked like an unlock attempt (it counts against the policy). The
    /// vault stays locked or unlocked as it was.
    ///
    /// - Throws: ``VaultError/policyViolation(_:)`` (checked first),
    ///   ``VaultError/wrongPasscode(remainingAttempts:)`` and the other unlock errors.
    public func changePasscode(old: String, new: String, cost: KeyDerivationCost = .calibrated()) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            let database = try database(&state)
            guard try database.header().mode == .passcode else { throw .noPasscodeSet }
            let violations = try loadPolicy().violations(for: new)
            guard violations.isEmpty else { throw .policyViolation(violations) }
            let dataKey = try verifyPasscode(old, database: database, state: &state)
            var session = if let current = state.session { current } else { try openSession(dataKey, database: database) }
            let parameters = try PasscodeSlotParameters.fresh(cost: cost)
            var deviceSecret = try existingDeviceSecret()
            defer { deviceSecret.resetBytes(in: 0..<deviceSecret.count) }
            let kek = try KeyEncryptionKey.passcode(new, parameters: parameters, deviceSecret: deviceSecret, storeID: dataKey.storeID)
            let slot = try KeySlot.wrap(dataKey, id: "passcode", kind: .passcode, parameters: parameters.encoded, kek: kek)
            try commit(&session, database: database, rewrap: true) { try $0.putSlot(slot) }
            if state.session != nil { state.session = session }
        }
        logger.info("vault passcode changed", metadata: ["vault": "\(name)"])
    }

    /// Checks a passcode under the policy's attempt rules and returns the data key.
    ///
    /// The attempt is written down as a failure — with the delay, lockout or pending wipe that
    /// failure brings — before the passcode is checked, and cleared only on success: a process
    /// killed at any point has still spent the attempt and earned its consequence.
    func verifyPasscode(_ passcode: String, database: VaultDatabase, state: inout State) throws(VaultError) -> DataKey {
        let header = try database.header()
        guard header.mode == .passcode else { throw .noPasscodeSet }
        // A file that is not this device's vault is refused before any guess is checked on it.
        try checkIdentity(storeID: header.storeID)
        let policy = try loadPolicy()
        let record = try AttemptRecord.load(from: secrets, key: keys.attempts, policy: policy)
        let started = clock.now
        if record.failures >= policy.maximumAttempts, policy.onLimit == .wipe {
            // The final attempt was interrupted before its outcome was applied.
            try destroy(&state)
            throw .wiped
        }
        if let blocked = record.blockedUntil(at: started) {
            throw blocked.lockedOut ? .lockedOut(until: blocked.until) : .throttled(until: blocked.until)
        }
        guard let slot = try database.slot(id: "passcode") else { throw .corrupt("the passcode key slot is missing") }
        let parameters = try PasscodeSlotParameters(encoded: slot.parameters)
        var deviceSecret = try existingDeviceSecret()
        defer { deviceSecret.resetBytes(in: 0..<deviceSecret.count) }

        var failed = AttemptRecord(
            failures: min(record.failures + 1, policy.maximumAttempts), lockouts: record.lockouts,
            sinceUnlock: min(record.failuresSinceUnlock + 1, AttemptRecord.countedSinceUnlock))
        failed.lastAttemptAt = started
        let limitReached = failed.failures >= policy.maximumAttempts
        var lockedUntil: Date?
        if limitReached, case .lock(let seconds) = policy.onLimit {
            failed.lockouts += 1
            let until = started.addingTimeInterval(policy.lockDuration(seconds, lockouts: failed.lockouts))
            failed.lockedUntil = until
            lockedUntil = until
            // After the lockout: one more attempt, then a lockout twice as long.
            failed.failures = policy.maximumAttempts - 1
        } else if !limitReached, policy.delay(afterFailures: failed.failures) > 0 {
            failed.retryAllowedAt = started.addingTimeInterval(policy.delay(afterFailures: failed.failures))
        }
        try failed.save(to: secrets, key: keys.attempts)

        let kek = try KeyEncryptionKey.passcode(passcode, parameters: parameters, deviceSecret: deviceSecret, storeID: header.storeID)
        if let dataKey = slot.unwrap(with: kek, storeID: header.storeID) {
            try AttemptRecord().save(to: secrets, key: keys.attempts)
            return dataKey
        }
        logger.notice("vault wrong passcode", metadata: ["vault": "\(name)", "failures": "\(failed.failures)"])
        if let lockedUntil { throw .lockedOut(until: lockedUntil) }
        if limitReached {
            try destroy(&state)
            logger.notice("vault wiped after too many wrong passcodes", metadata: ["vault": "\(name)"])
            throw .wiped
        }
        throw .wrongPasscode(remainingAttempts: policy.maximumAttempts - failed.failures)
    }
}
