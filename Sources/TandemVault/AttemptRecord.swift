import Foundation

/// Consecutive wrong passcodes and the waits they impose, kept in the host's
/// ``SecretStorage`` so that replacing the vault file does not reset them.
struct AttemptRecord: Codable, Sendable, Equatable {
    /// Consecutive failures since the last success (or the last lockout).
    var failures = 0
    /// No attempt is accepted before this date (escalating delay).
    var retryAllowedAt: Date?
    /// The vault refuses every attempt until this date (the policy's limit was reached).
    var lockedUntil: Date?

    static func load(from storage: any SecretStorage, key: String) throws(VaultError) -> AttemptRecord {
        guard let data = try storage.data(forKey: key) else { return AttemptRecord() }
        do {
            return try JSONDecoder().decode(AttemptRecord.self, from: data)
        } catch {
            // A damaged counter must not become a free reset: treat it as the worst case the
            // policy allows before its limit, which the next success clears.
            return AttemptRecord(failures: Int.max / 2)
        }
    }

    func save(to storage: any SecretStorage, key: String) throws(VaultError) {
        do {
            try storage.set(try JSONEncoder.sorted.encode(self), forKey: key)
        } catch let error as VaultError {
            throw error
        } catch {
            throw .coding("\(error)")
        }
    }
}
