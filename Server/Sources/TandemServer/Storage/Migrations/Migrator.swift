import Logging
import SQLKit
import TandemPlatform

/// Brings a database up to the latest schema: applies, in order, each migration not yet
/// recorded in `schema_migrations`, each in its own transaction.
///
/// Safe on restart (applied versions are skipped) and when several processes start at once:
/// on PostgreSQL every step holds a transaction-scoped advisory lock, on SQLite the write lock
/// of `BEGIN IMMEDIATE`, and the applied versions are read again under that lock. A step SQLite
/// refuses with "database is locked" rather than wait (it does so when waiting could deadlock)
/// is rolled back and run again.
struct Migrator: Sendable {
    /// An arbitrary constant naming Tandem's migration lock among PostgreSQL advisory locks.
    static let advisoryLockKey: Int64 = 0x7A6E_6465_6D31

    private let connector: any DatabaseConnector
    private let migrations: [Migration]
    private let logger: Logger
    private let clock: any WallClock

    /// Creates a migrator.
    ///
    /// - Parameters:
    ///   - connector: The database to migrate.
    ///   - migrations: The schema's migrations (``ServerMigrations/all`` for the server).
    ///   - logger: Receives one line per applied migration.
    ///   - clock: When each migration is recorded as applied (default the system's clock).
    init(
        connector: any DatabaseConnector, migrations: [Migration] = ServerMigrations.all, logger: Logger, clock: any WallClock = SystemClock()
    ) {
        self.clock = clock
        self.connector = connector
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.logger = logger
    }

    /// Applies every pending migration.
    ///
    /// - Returns: The versions this call applied (empty when the schema was already current).
    /// - Throws: ``StorageError/unknownMigration(version:)`` when the database is newer than
    ///   this build; ``StorageError/queryFailed(operation:message:)`` when a statement fails
    ///   (that migration is rolled back).
    @discardableResult
    func migrate() async throws(StorageError) -> [Int] {
        let dialect = connector.dialect
        let lock = Self.advisoryLockKey
        do {
            try await SQLiteBusyRetry.run {
                try await connector.withTransaction { database in
                    try await Self.lock(database, dialect: dialect, key: lock)
                    try await database.raw(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
                    ).run()
                }
            }
        } catch {
            throw .queryFailed(operation: "creating schema_migrations", message: String(describing: error))
        }
        let known = Set(migrations.map(\.version))
        var applied: [Int] = []
        for migration in migrations {
            let didApply: Bool
            do {
                // Each step is one transaction, rolled back if SQLite refuses it for a lock, so
                // running it again is safe (see SQLiteBusyRetry).
                didApply = try await SQLiteBusyRetry.run { try await connector.withTransaction { database in
                    try await Self.lock(database, dialect: dialect, key: lock)
                    let versions = try await database.raw("SELECT version FROM schema_migrations").all()
                        .map { try $0.decode(column: "version", as: Int.self) }
                    if let unknown = versions.first(where: { !known.contains($0) }) {
                        throw StorageError.unknownMigration(version: unknown)
                    }
                    guard !versions.contains(migration.version) else { return false }
                    for statement in migration.statements(dialect) {
                        try await database.raw(SQLQueryString(statement)).run()
                    }
                    try await database.raw("""
                        INSERT INTO schema_migrations (version, name, applied_at)
                        VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Timestamp(clock.now).milliseconds))
                        """).run()
                    return true
                } }
            } catch let error as StorageError {
                throw error
            } catch {
                throw .queryFailed(operation: "migration \(migration.version) (\(migration.name))", message: String(describing: error))
            }
            if didApply {
                applied.append(migration.version)
                logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
        }
        return applied
    }

    private static func lock(_ database: any SQLDatabase, dialect: StorageDialect, key: Int64) async throws {
        guard dialect == .postgres else { return }
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
    }
}
