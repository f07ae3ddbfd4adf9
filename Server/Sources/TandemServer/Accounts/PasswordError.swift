/// What can go wrong hashing or checking a password.
public enum PasswordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stored hash is not in ``PasswordHasher``'s format (corrupt or from another system).
    case malformedHash
    /// The key derivation refused its parameters.
    case derivationFailed(String)

    /// A one-line message for logs and the command line.
    public var description: String {
        switch self {
        case .malformedHash: "the stored password hash is malformed"
        case .derivationFailed(let message): "password hashing failed: \(message)"
        }
    }
}
