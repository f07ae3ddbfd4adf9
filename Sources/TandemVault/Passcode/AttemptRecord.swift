import Foundation
import TandemPlatform

/// Consecutive wrong passcodes and the waits they impose, kept in the host's
/// `SecretStorage` so that replacing the vault file does not reset them.
struct AttemptRecord: Codable, Sendable, Equatable {
    /// Consecutive failures since the last success. It stays just under the limit after a
    /// lockout, so that each lockout grants one attempt, not a new round.
    var failures = 0
    /// Lockouts since the last success; each one lasts twice as long as the one before.
    var lockouts = 0
    /// The last failure (or pending attempt); a clock set back before it does not shorten waits.
    var lastAttemptAt: Date?
    /// No attempt is accepted before this date (escalating delay).
    var retryAllowedAt: Date?
    /// The vault refuses every attempt until this date (the policy's limit was reached).
    var lockedUntil: Date?
    /// Wrong passcodes since the user last opened the vault, by the passcode or by biometrics:
    /// what the app tells the user after a biometric unlock, which starts this count again
    /// (and leaves ``failures`` as it is). Neither capped by the policy nor lowered by a lockout.
    /// `nil` in a record written before it was kept (read as ``failures``).
    var sinceUnlock: Int?

    /// The most wrong passcodes ``sinceUnlock`` counts.
    static let countedSinceUnlock = 1_000_000

    init(failures: Int = 0, lockouts: Int = 0, sinceUnlock: Int? = 0) {
        self.failures = failures
        self.lockouts = lockouts
        self.sinceUnlock = sinceUnlock
    }

    /// Wrong passcodes since the user last opened the vault (``sinceUnlock``).
    var failuresSinceUnlock: Int { sinceUnlock ?? failures }

    /// The stored record; a damaged one counts as one attempt away from the policy's limit,
    /// never as a reset.
    static func load(from storage: any SecretStorage, key: String, policy: PasscodePolicy) throws(VaultError) -> AttemptRecord {
        guard let data = try storage.read(key) else { return AttemptRecord() }
        guard var record = try? JSONDecoder().decode(AttemptRecord.self, from: data) else {
            // Told as that many wrong passcodes too: the user learns how close the limit is.
            return AttemptRecord(failures: policy.maximumAttempts - 1, sinceUnlock: nil)
        }
        record.failures = min(max(record.failures, 0), policy.maximumAttempts)
        record.lockouts = min(max(record.lockouts, 0), 32)
        record.sinceUnlock = record.sinceUnlock.map { min(max($0, 0), countedSinceUnlock) }
        return record
    }

    /// The date before which no attempt is accepted, if any, at `now`.
    func blockedUntil(at now: Date) -> (until: Date, lockedOut: Bool)? {
        if let lockedUntil, lockedUntil > now { return (lockedUntil, true) }
        if let retryAllowedAt, retryAllowedAt > now { return (retryAllowedAt, false) }
        // The clock went back before the last attempt: wait until it has caught up.
        if let lastAttemptAt, lastAttemptAt > now { return (lastAttemptAt, false) }
        return nil
    }

    func save(to storage: any SecretStorage, key: String) throws(VaultError) {
        do {
            try storage.write(try JSONEncoder.sorted.encode(self), to: key)
        } catch let error as VaultError {
            throw error
        } catch {
            throw .coding("\(error)")
        }
    }
}
