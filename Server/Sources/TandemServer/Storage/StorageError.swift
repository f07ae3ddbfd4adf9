/// What can go wrong opening or using the server's storage.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `--database` argument is neither `sqlite:PATH` nor a `postgres://` URL; the message says
    /// what shape is expected.
    case invalidDatabaseLocation(String)
    /// The database could not be opened or reached (file not creatable, server down, bad credentials).
    case unavailable(String)
    /// A statement failed; the message names the operation, never the bound values.
    case queryFailed(operation: String, message: String)
    /// A unique value is already taken (a username, a client id).
    case alreadyExists(String)
    /// A referenced record does not exist (an unknown client id or username).
    case notFound(String)
    /// The database holds a migration version this build does not know: it was migrated by a newer server.
    case unknownMigration(version: Int)
    /// A stored value could not be read back (corrupt key material, an unknown security mode).
    case corruptRecord(String)
    /// Storing would take an app past its quota; nothing was stored.
    case quotaExceeded(String)
    /// What was to be stored breaks a rule of its table (a row of an actionable entity set
    /// without its id); nothing was stored, and the message says which rule.
    case invalidRecord(String)

    /// A one-line message for logs and the command line.
    public var description: String {
        switch self {
        case .invalidDatabaseLocation(let message): "invalid database location: \(message)"
        case .unavailable(let message): "database unavailable: \(message)"
        case .queryFailed(let operation, let message): "database error during \(operation): \(message)"
        case .alreadyExists(let what): "\(what) already exists"
        case .notFound(let what): "\(what) not found"
        case .unknownMigration(let version): "the database has migration \(version), which this server does not know; upgrade the server"
        case .corruptRecord(let message): "corrupt record: \(message)"
        case .quotaExceeded(let message): "quota exceeded: \(message)"
        case .invalidRecord(let message): "not stored: \(message)"
        }
    }
}
