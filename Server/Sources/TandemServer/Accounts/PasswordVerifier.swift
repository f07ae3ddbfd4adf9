import Logging
import Synchronization

/// Checks sign-in passwords: off the event loop through a ``HashingGate``, at the same cost
/// whether or not the user exists, and re-hashing a stored hash weaker than the current cost
/// once the password has proved right.
final class PasswordVerifier: Sendable {
    /// The current cost; new and upgraded hashes use it.
    let hasher: PasswordHasher
    /// Bounds the hashes running at once.
    let gate: HashingGate
    private let decoy = Mutex<String?>(nil)

    /// Creates a verifier hashing at `hasher`'s cost, `concurrentHashes` at a time.
    init(hasher: PasswordHasher, concurrentHashes: Int) {
        self.hasher = hasher
        gate = HashingGate(width: concurrentHashes)
    }

    /// The user when `password` is theirs; `nil` for a wrong password or an unknown user (which
    /// costs one hash too, so timing does not reveal which usernames exist).
    ///
    /// After a match against a hash weaker than ``hasher``'s cost, the stored hash is replaced;
    /// a failure to do so is logged and does not fail the sign-in.
    func verify(
        username: String, password: String, accounts: AccountStore, logger: Logger
    ) async throws(StorageError) -> UserRecord? {
        let user = try await accounts.user(named: username)
        let stored: String
        if let user { stored = user.passwordHash } else { stored = await decoyHash() }
        let hasher = hasher
        let matches = await gate.run { (try? hasher.verify(password, against: stored)) ?? false }
        guard matches, let user else { return nil }
        if hasher.isWeaker(stored) {
            if let upgraded = await gate.run({ try? hasher.hash(password) }),
               try await accounts.replacePasswordHash(userID: user.id, from: stored, to: upgraded) {
                logger.info("password hash upgraded", metadata: ["user": "\(user.id)", "ln": "\(hasher.logN)"])
            } else {
                logger.warning("password hash not upgraded", metadata: ["user": "\(user.id)"])
            }
        }
        return user
    }

    /// A valid hash of a random password at the current cost, made once.
    private func decoyHash() async -> String {
        if let made = decoy.withLock({ $0 }) { return made }
        let hasher = hasher
        let made = await gate.run { (try? hasher.hash(SecretToken.generate(.loginForm))) ?? "" }
        decoy.withLock { $0 = $0 ?? made }
        return made
    }
}
