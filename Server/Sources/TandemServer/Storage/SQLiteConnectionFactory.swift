import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteKit
import SQLiteNIO

/// Opens connections to one SQLite file, set up for a server: write-ahead logging (readers never
/// block the writer), a busy timeout (a second process waits for the write lock instead of
/// failing), foreign keys on, and `synchronous = NORMAL`: in WAL mode a commit survives the
/// process being killed (it is in the log, in the OS's cache) but is not fsynced one by one, so
/// a power cut may lose the last moments of commits (never corrupt the file). With `FULL` every
/// token rotation would wait for the disk (~10 ms here), capping the server near 100 grants/s.
struct SQLiteConnectionFactory: ConnectionPoolSource, Sendable {
    /// The database file.
    let path: String
    /// The thread the connection's blocking SQLite calls run on.
    let threadPool: NIOThreadPool

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteNIO.SQLiteConnection> {
        SQLiteNIO.SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
            .flatMap { connection in
                // The timeout first: switching to WAL itself waits for other connections' locks.
                connection.query("PRAGMA busy_timeout = 10000")
                    .flatMap { _ in connection.query("PRAGMA journal_mode = WAL") }
                    .flatMap { _ in connection.query("PRAGMA synchronous = NORMAL") }
                    .flatMap { _ in connection.query("PRAGMA foreign_keys = ON") }
                    .map { _ in connection }
                    .flatMapErrorThrowing { error in
                        _ = connection.close()
                        throw error
                    }
            }
    }
}
