import AsyncKit
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit

/// The PostgreSQL driver: a pool of connections to one database, shared safely by several
/// server processes (every multi-statement change runs in a transaction, and redemptions are
/// single conditional updates).
struct PostgresConnector: DatabaseConnector {
    /// Always ``StorageDialect/postgres``.
    var dialect: StorageDialect { .postgres }

    private let handle: ConnectionPoolHandle<EventLoopGroupConnectionPool<PostgresConnectionSource>>
    private var pool: EventLoopGroupConnectionPool<PostgresConnectionSource> { handle.pool }
    private let logger: Logger

    /// Connects to the database named by `url` and checks that it answers.
    ///
    /// - Parameters:
    ///   - url: A `postgres://user:password@host:port/database` URL. TLS is used when the server
    ///     offers it; `?tlsmode=disable|prefer|require` (or libpq's `sslmode`) changes that.
    ///   - maxConnectionsPerEventLoop: Pool size per event loop of the shared event loop group.
    ///   - logger: Where connection problems are reported.
    /// - Throws: ``StorageError/unavailable(_:)`` when the URL is unusable or the server does not answer.
    init(url: String, maxConnectionsPerEventLoop: Int = 8, logger: Logger) async throws(StorageError) {
        let configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw .unavailable("cannot use the PostgreSQL URL: \(error)")
        }
        self.logger = logger
        handle = ConnectionPoolHandle(pool: EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: maxConnectionsPerEventLoop,
            requestTimeout: .seconds(30),
            pruneInterval: nil,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton))
        do {
            try await withConnection { database in try await database.raw("SELECT 1").run() }
        } catch {
            await shutdown()
            throw .unavailable("cannot connect to PostgreSQL: \(String(reflecting: error))")
        }
    }

    /// Runs `body` with a pooled connection of its own, returned to the pool afterwards.
    func withConnection<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await body(connection.sql(queryLogLevel: nil))
    }

    /// Closes every pooled connection.
    func shutdown() async {
        try? await pool.shutdownAsync()
    }
}
