/// Why the server's keys could not be loaded; the server does not start without them.
public enum ServerKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading or storing a key failed.
    case storage(StorageError)
    /// A stored key is neither a sealed key nor a key of the right size, or does not decode.
    case corrupt(keyID: String, reason: String)
    /// No given system secret opens the stored key: start with the secret it was sealed under
    /// (as current, or as previous while rotating). No new key is made, which would invalidate
    /// every token issued.
    case wrongSystemSecret(keyID: String)

    /// A one-line message for logs and the command line.
    public var description: String {
        switch self {
        case .storage(let error): error.description
        case .corrupt(let keyID, let reason): "server key \(keyID) is unusable: \(reason)"
        case .wrongSystemSecret(let keyID):
            "server key \(keyID) was sealed under another system secret; give that secret (as TANDEM_SYSTEM_SECRET_PREVIOUS while rotating)"
        }
    }
}
