import Foundation
import GRDB
import Logging
import SQLKit

/// The SQLite driver: one GRDB connection to a database file, behind SQLKit's API so that
/// ``ServerDatabase``'s stores run the same statements here as on PostgreSQL.
///
/// Statements run as cached prepared statements on the connection's serial queue. Compiling the
/// rotation statement (and the trigger it fires) costs more than running it, so the cache is
/// what lets one connection keep up with a busy token endpoint.
///
/// Callers do not wait for one another's whole ``withConnection(_:)`` bodies, as they would for
/// a pooled connection: their statements interleave, each atomic on its own. A transaction is
/// different: once a caller's statement opens one (`BEGIN IMMEDIATE`), other callers' statements
/// wait until it commits or rolls back, so a transaction only ever holds its own statements.
/// Correctness across processes still rests on the transactions and single conditional
/// updates themselves, so a second process on the same file is safe.
struct SQLiteConnector: DatabaseConnector {
    /// Always ``StorageDialect/sqlite``.
    var dialect: StorageDialect { .sqlite }

    private let connection: SQLiteSerialConnection
    private let checkpointer: SQLiteCheckpointer
    private let logger: Logger

    /// Opens (creating if needed) the database file at `path` and its directory; both are made
    /// private to the server's account first (see ``PrivateFiles``).
    ///
    /// The connection uses write-ahead logging (readers never block the writer; a second
    /// connection checkpoints the log, see ``SQLiteCheckpointer``), a busy timeout
    /// (a second process waits for the write lock instead of failing), foreign keys, and
    /// `synchronous = NORMAL`: in WAL mode a commit survives the process being killed (it is in
    /// the log, in the OS's cache) but is not fsynced one by one, so a power cut may lose the
    /// last moments of commits (never corrupt the file). The article "Running the server on
    /// PostgreSQL" says why.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - logger: Where connection problems are reported.
    /// - Throws: ``StorageError/unavailable(_:)`` when the directory or file cannot be created or opened.
    init(path: String, logger: Logger) async throws(StorageError) {
        // Private before SQLite opens it: the -wal and -shm files take the main file's mode.
        for file in try PrivateFiles.prepareDatabase(at: path) {
            logger.notice("narrowed a database file readable by other accounts to 0600", metadata: ["file": "\(file)"])
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        // Transactions span several statements, each its own access to the queue.
        configuration.allowsUnsafeTransactions = true
        configuration.label = "tandem.sqlite"
        // Checkpoints run beside the writer (SQLiteCheckpointer), not inside its commits.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        do {
            // Several processes opening a new file at once may be refused without waiting while
            // one of them switches it to write-ahead logging (see SQLiteBusyRetry).
            let queue = try await SQLiteBusyRetry.run { try DatabaseQueue(path: path, configuration: configuration) }
            connection = SQLiteSerialConnection(database: queue)
            checkpointer = try SQLiteCheckpointer(path: path, logger: logger)
        } catch {
            throw .unavailable("cannot open the SQLite database \(path): \(error)")
        }
        self.logger = logger
    }

    /// Runs `body` with a view of the connection of its own; a transaction it opens is closed
    /// (rolled back) when it returns, should `body` have left it open.
    func withConnection<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let session = SQLiteSession(connection: connection, id: connection.makeSessionID(), logger: logger)
        do {
            let result = try await body(session)
            await session.end()
            return result
        } catch {
            await session.end()
            throw error
        }
    }

    /// How many statements wait for another caller's open transaction to end (what a test of
    /// that waiting waits for).
    var statementsWaitingForATransaction: Int { connection.parkedCount }

    /// Closes the connection.
    func shutdown() async {
        await checkpointer.stop()
        connection.close()
    }
}
