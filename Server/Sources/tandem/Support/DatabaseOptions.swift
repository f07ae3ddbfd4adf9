import ArgumentParser
import Logging
import TandemServer

/// The `--database` option of every command that opens the server's storage.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "sqlite:PATH or postgres://user:password@host:port/database (default: sqlite in the user's data directory).")
    var database: String?

    func validate() throws {
        if let database {
            do {
                _ = try DatabaseLocation(parsing: database)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The location named, or the default SQLite file.
    func location() throws -> DatabaseLocation {
        guard let database else { return DatabaseLocation.defaultLocation() }
        return try DatabaseLocation(parsing: database)
    }

    /// Opens and migrates the storage, runs `body` with it, and closes it whatever happens.
    func withStorage<Result>(logger: Logger, _ body: (SQLServerStorage) async throws -> Result) async throws -> Result {
        let storage = try await SQLServerStorage.open(try location(), logger: logger)
        do {
            let result = try await body(storage)
            await storage.connector.shutdown()
            return result
        } catch {
            await storage.connector.shutdown()
            throw error
        }
    }
}
