import Logging
import TandemPlatform

extension SQLServerStorage {
    /// Opens the database at `location` with its driver and migrates it to the current schema.
    ///
    /// - Parameters:
    ///   - location: A SQLite file (created with its directory if missing) or a PostgreSQL URL.
    ///   - logger: Receives connection problems and applied migrations.
    ///   - clock: When migrations are recorded as applied (default the system's clock).
    /// - Returns: Storage ready to use; call ``DatabaseConnector/shutdown()`` on its connector when done.
    public static func open(
        _ location: DatabaseLocation, logger: Logger, clock: any WallClock = SystemClock()
    ) async throws(StorageError) -> SQLServerStorage {
        let connector: any DatabaseConnector
        switch location {
        case .sqlite(let path):
            connector = try await SQLiteConnector(path: path, logger: logger)
        case .postgres(let url):
            connector = try await PostgresConnector(url: url, logger: logger)
        }
        do {
            try await Migrator(connector: connector, logger: logger, clock: clock).migrate()
        } catch {
            await connector.shutdown()
            throw error
        }
        return SQLServerStorage(connector: connector)
    }

    /// Opens and migrates the database at `location`, runs `body` with it, and shuts it down
    /// whatever `body` does.
    ///
    /// ```swift
    /// let user = try await SQLServerStorage.withOpened(location, logger: logger) { try await $0.user(named: "ada") }
    /// ```
    public static func withOpened<Result>(
        _ location: DatabaseLocation, logger: Logger, _ body: (SQLServerStorage) async throws -> Result
    ) async throws -> Result {
        let storage = try await open(location, logger: logger)
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
