/// What can go wrong administering the server.
public enum AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An argument is unusable; the message says which and why.
    case invalidArgument(String)
    /// The named user does not exist.
    case unknownUser(String)
    /// The named app does not exist.
    case unknownApp(String)
    /// Storage failed or refused (for example a username already taken).
    case storage(StorageError)
    /// Hashing the password failed.
    case password(PasswordError)
    /// Issuing a token failed.
    case token(TokenError)
    /// The server's keys could not be loaded (a wrong system secret, a corrupt key).
    case serverKeys(ServerKeyError)

    /// A one-line message for the command line.
    public var description: String {
        switch self {
        case .invalidArgument(let message): message
        case .unknownUser(let username): "no user named \(username.debugDescription)"
        case .unknownApp(let clientID): "no app with client id \(clientID.debugDescription)"
        case .storage(let error): error.description
        case .password(let error): error.description
        case .token(let error): error.description
        case .serverKeys(let error): error.description
        }
    }
}
