import Foundation

/// Where the server keeps its data: a SQLite file (the zero-setup default) or a PostgreSQL
/// database shared by several server processes.
///
/// ```swift
/// let local = try DatabaseLocation(parsing: "sqlite:/var/lib/tandem/tandem.sqlite")
/// let shared = try DatabaseLocation(parsing: "postgres://tandem:secret@db.internal:5432/tandem")
/// ```
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite database file; it and its directory are created on first start.
    case sqlite(path: String)
    /// A PostgreSQL database named by a `postgres://` (or `postgresql://`) URL.
    case postgres(url: String)

    /// Parses the `--database` argument: `sqlite:PATH` or `postgres://user:pass@host:port/db`.
    ///
    /// - Parameter text: The argument as typed.
    /// - Throws: ``StorageError/invalidDatabaseLocation(_:)`` for anything else.
    public init(parsing text: String) throws(StorageError) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw .invalidDatabaseLocation("sqlite: needs a file path, as in sqlite:/path/to/tandem.sqlite") }
            self = .sqlite(path: path)
            return
        }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
                  components.path.count > 1
            else {
                throw .invalidDatabaseLocation("a PostgreSQL URL needs a host and a database: postgres://user:password@host:port/database")
            }
            self = .postgres(url: text)
            return
        }
        throw .invalidDatabaseLocation("use sqlite:PATH or postgres://user:password@host:port/database")
    }

    /// The default location: `tandem.sqlite` in the user's data directory
    /// (`$XDG_DATA_HOME/tandem`, else `~/.local/share/tandem`).
    ///
    /// - Parameter environment: The process environment to read `XDG_DATA_HOME` and `HOME` from.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> DatabaseLocation {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return .sqlite(path: (dataHome as NSString).appendingPathComponent("tandem/tandem.sqlite"))
    }

    /// Where the server generates its system secret when none is given: `PATH.system-secret`
    /// beside a SQLite database; `nil` for PostgreSQL, whose instances must share one secret.
    public var generatedSystemSecretPath: String? {
        guard case .sqlite(let path) = self else { return nil }
        return path + ".system-secret"
    }

    /// Whether the location carries a password (a `postgres://user:password@…` URL).
    public var containsPassword: Bool {
        guard case .postgres(let url) = self, let password = URLComponents(string: url)?.password else { return false }
        return !password.isEmpty
    }

    /// The location with any password removed, safe for logs.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://(unparseable)" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://(unparseable)"
        }
    }
}
