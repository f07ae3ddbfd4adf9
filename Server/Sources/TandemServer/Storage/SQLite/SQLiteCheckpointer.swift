import Foundation
import GRDB
import Logging

/// Copies the write-ahead log back into the SQLite database file from a connection of its own,
/// off the writer's path.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so that
/// commit and every request queued behind the single writer would wait for the copy and its
/// `fsync` (the article "Running the server on PostgreSQL" has the figures). Here the writer's
/// connection has automatic checkpoints turned off, and this one runs passive checkpoints
/// (which never block the writer or readers) a few times a second. Once a checkpoint has copied the whole log, SQLite starts
/// the log over at the next write, so it stays bounded.
final class SQLiteCheckpointer: Sendable {
    private let task: Task<Void, Never>

    /// Starts checkpointing the database at `path` every `interval`.
    ///
    /// - Throws: GRDB's error when the second connection cannot be opened.
    init(path: String, interval: Duration = .milliseconds(200), logger: Logger) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(1)
        configuration.label = "tandem.sqlite.checkpoint"
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        task = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                do {
                    // Paces copying the log to the disk, which only real time moves.
                    try await Task.sleep(for: interval)
                    try await queue.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
                } catch is CancellationError {
                    break
                } catch {
                    // Another process's checkpointer holds the lock, or the disk failed: the log
                    // keeps the data; the next pass tries again.
                    logger.debug("checkpoint skipped", metadata: ["error": "\(error)"])
                }
            }
            try? await queue.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
            try? queue.close()
        }
    }

    /// Stops checkpointing (after one last pass) once the current pass is done.
    func stop() async {
        task.cancel()
        await task.value
    }
}
