import ArgumentParser
import Logging
import TandemServer

/// The `--database` option of every command that opens the server's storage, with the forms
/// that keep a PostgreSQL password out of the process list: `--database-file` and
/// `TANDEM_DATABASE_URL`. A password inside `--database` still works, with a warning.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "sqlite:PATH or postgres://user:password@host:port/database (default: $TANDEM_DATABASE_URL, else sqlite in the user's data directory); a password here is visible in ps.")
    var database: String?

    @Option(name: .long, help: "A file whose first line is the --database value (keeps a PostgreSQL password out of ps).")
    var databaseFile: String?

    /// The environment variable read when neither option is given.
    static let environmentVariable = "TANDEM_DATABASE_URL"

    func validate() throws {
        guard database == nil || databaseFile == nil else { throw ValidationError("give either --database or --database-file") }
        if let database {
            do {
                _ = try DatabaseLocation(parsing: database)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The location named, or the default SQLite file; warns when `--database` holds a password.
    func location() throws -> DatabaseLocation {
        let text = try SecretInput.read(option: nil, optionName: "--database", file: databaseFile, environmentVariable: Self.environmentVariable)
        if let text { return try DatabaseLocation(parsing: text) }
        guard let database else { return DatabaseLocation.defaultLocation() }
        let location = try DatabaseLocation(parsing: database)
        if location.containsPassword {
            SecretInput.warnVisible("a password in --database", alternative: "--database-file or $\(Self.environmentVariable)")
        }
        return location
    }

    /// Opens and migrates the storage, runs `body` with it, and closes it whatever happens.
    func withStorage<Result>(logger: Logger, _ body: (ServerDatabase) async throws -> Result) async throws -> Result {
        try await ServerDatabase.withOpened(try location(), logger: logger, body)
    }
}
