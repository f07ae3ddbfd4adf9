import GRDB
import Synchronization

/// One SQLite connection shared by every session of a ``SQLiteConnector``: work runs in order on
/// GRDB's serial queue, and a session that has opened a transaction has the connection to itself
/// until the transaction ends.
///
/// Whether a transaction is open is read from SQLite after each piece of work, not inferred from
/// the SQL, so `BEGIN`, `COMMIT`, `ROLLBACK` and SQLite's own rollbacks on error are all seen.
/// Work from other sessions that arrives meanwhile is parked and runs, in arrival order, as soon
/// as the transaction ends.
final class SQLiteSerialConnection: Sendable {
    /// A piece of work and the session it belongs to.
    private struct Job {
        let session: UInt64
        let work: @Sendable (Database) -> Void
    }

    /// The gate, touched only on the database queue (the mutex is never contended; it makes
    /// the state checkably safe to share).
    private struct Gate {
        var owner: UInt64?
        var parked: [Job] = []
    }

    private let database: DatabaseQueue
    private let gate = Mutex(Gate())
    private let sessionCounter = Atomic<UInt64>(0)

    /// Wraps an open GRDB queue configured with `allowsUnsafeTransactions`.
    init(database: DatabaseQueue) {
        self.database = database
    }

    /// A new session id, unique on this connection.
    func makeSessionID() -> UInt64 {
        sessionCounter.add(1, ordering: .relaxed).newValue
    }

    /// Runs `work` on the connection for `session`, after any transaction of another session.
    ///
    /// - Returns: What `work` returns, and whether a transaction is open after it.
    func run<Result: Sendable>(
        session: UInt64, _ work: @escaping @Sendable (Database) throws -> Result
    ) async throws -> (result: Result, transactionOpen: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job(session: session) { db in
                let result = Swift.Result { try work(db) }
                continuation.resume(with: result.map { ($0, db.isInsideTransaction) })
            }
            database.asyncWriteWithoutTransaction { db in self.submit(job, db) }
        }
    }

    /// Closes the connection; later work fails with GRDB's "connection is closed" error.
    func close() {
        try? database.close()
    }

    // MARK: - On the database queue

    private func submit(_ job: Job, _ db: Database) {
        let mayRun = gate.withLock { gate in
            if let owner = gate.owner, owner != job.session {
                gate.parked.append(job)
                return false
            }
            return true
        }
        guard mayRun else { return }
        execute(job, db)
        releaseParked(db)
    }

    private func execute(_ job: Job, _ db: Database) {
        job.work(db)
        let owner: UInt64? = db.isInsideTransaction ? job.session : nil
        gate.withLock { $0.owner = owner }
    }

    /// Once no transaction is open, runs the parked work in order; if one of those opens a
    /// transaction, the rest of other sessions stays parked.
    private func releaseParked(_ db: Database) {
        while true {
            let next: Job? = gate.withLock { gate in
                guard let index = gate.parked.firstIndex(where: { gate.owner == nil || gate.owner == $0.session }) else { return nil }
                return gate.parked.remove(at: index)
            }
            guard let next else { return }
            execute(next, db)
        }
    }
}
