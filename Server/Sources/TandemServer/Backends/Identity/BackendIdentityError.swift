/// Why the server could not make the token that carries a user to a backend.
public enum BackendIdentityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The backend's audience cannot be a token's `aud`; the reason says why.
    case invalidAudience(String)
    /// The signature failed (the key is unusable).
    case signingFailed(String)

    public var description: String {
        switch self {
        case .invalidAudience(let reason): "invalid backend audience: \(reason)"
        case .signingFailed(let reason): "the backend token could not be signed: \(reason)"
        }
    }
}
