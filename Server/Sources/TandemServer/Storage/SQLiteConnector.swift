import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The SQLite driver: one connection to a database file, handed to one caller at a time.
///
/// SQLite admits one writer; a single connection queues the server's transactions in order
/// instead of letting them collide on the file lock. Correctness still rests on the
/// transactions themselves (`BEGIN IMMEDIATE`), so a second process on the same file is safe.
public struct SQLiteConnector: DatabaseConnector {
    /// Always ``StorageDialect/sqlite``.
    public var dialect: StorageDialect { .sqlite }

    private let handle: ConnectionPoolHandle<EventLoopConnectionPool<SQLiteConnectionFactory>>
    private var pool: EventLoopConnectionPool<SQLiteConnectionFactory> { handle.pool }
    private let logger: Logger
    private let threadPool: NIOThreadPool

    /// Opens (creating if needed) the database file at `path` and its directory.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - logger: Where connection problems are reported.
    /// - Throws: ``StorageError/unavailable(_:)`` when the directory or file cannot be created or opened.
    public init(path: String, logger: Logger) async throws(StorageError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unavailable("cannot create the directory \(directory.path): \(error.localizedDescription)")
        }
        self.logger = logger
        // A thread of its own: while SQLite waits for another connection's write lock it blocks
        // its thread, and on a shared pool that could starve the connection holding the lock.
        threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        handle = ConnectionPoolHandle(pool: EventLoopConnectionPool(
            source: SQLiteConnectionFactory(path: path, threadPool: threadPool),
            maxConnections: 1,
            requestTimeout: .seconds(30),
            pruneInterval: nil,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()))
        do {
            try await withConnection { database in try await database.raw("SELECT 1").run() }
        } catch {
            await shutdown()
            throw .unavailable("cannot open the SQLite database \(path): \(error)")
        }
    }

    /// Runs `body` with the connection once it is free (callers queue in order).
    public func withConnection<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await body(connection.sql(queryLogLevel: nil))
    }

    /// Closes the connection and stops its thread.
    public func shutdown() async {
        try? await pool.close().get()
        try? await threadPool.shutdownGracefully()
    }
}
