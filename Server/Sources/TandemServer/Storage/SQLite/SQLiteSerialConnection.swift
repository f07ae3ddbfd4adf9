import GRDB
import Synchronization

/// One SQLite connection shared by every session of a ``SQLiteConnector``: statements run in
/// order on GRDB's serial queue, a session that has opened a transaction has the connection to
/// itself until the transaction ends, and statements that queue up meanwhile share one commit.
///
/// **Transactions.** Whether one is open is read from SQLite after each statement, not inferred
/// from the SQL, so `BEGIN`, `COMMIT`, `ROLLBACK` and SQLite's own rollbacks on error are all
/// seen. Statements of other sessions that arrive meanwhile are parked and run as soon as the
/// transaction ends.
///
/// **Group commit.** Statements outside any session's transaction that are waiting together
/// run inside one `BEGIN IMMEDIATE … COMMIT`, and none of their callers hears back before that
/// commit: each statement is still atomic on its own (SQLite rolls back a failed statement,
/// not the transaction), but the batch pays for one commit instead of one each. Under load the
/// queue fills while the previous batch runs, so batches grow with the load and an idle server
/// commits each statement alone. If the shared commit fails, every caller in it gets the error.
final class SQLiteSerialConnection: Sendable {
    /// Answers a caller once the fate of its statement is known: `nil` when it is committed (or
    /// ran outside a shared commit), else the error that undid it.
    typealias Completion = @Sendable (_ sharedCommitError: (any Error)?, _ transactionOpen: Bool) -> Void

    /// A statement and the session it belongs to.
    private struct Job: Sendable {
        let session: UInt64
        /// Whether it may share a commit: a statement that neither is nor runs inside a transaction.
        let mayShareCommit: Bool
        /// Runs the statement and returns how to answer its caller.
        let work: @Sendable (Database) -> Completion
    }

    private struct State {
        /// Jobs submitted and not yet taken by the database queue.
        var incoming: [Job] = []
        /// Whether a drain of `incoming` is scheduled on the database queue.
        var drainScheduled = false
        /// The session whose transaction is open, if any.
        var owner: UInt64?
        /// Jobs of other sessions waiting for that transaction to end.
        var parked: [Job] = []
    }

    /// The most statements one shared commit holds, so one commit's latency stays bounded.
    static let maximumSharedCommit = 64

    private let database: DatabaseQueue
    private let state = Mutex(State())
    private let sessionCounter = Atomic<UInt64>(0)

    /// Wraps an open GRDB queue configured with `allowsUnsafeTransactions`.
    init(database: DatabaseQueue) {
        self.database = database
    }

    /// How many statements of other sessions wait for an open transaction to end.
    var parkedCount: Int { state.withLock { $0.parked.count } }

    /// A new session id, unique on this connection.
    func makeSessionID() -> UInt64 {
        sessionCounter.add(1, ordering: .relaxed).newValue
    }

    /// Runs `work` on the connection for `session`.
    ///
    /// - Parameters:
    ///   - session: The caller's session id.
    ///   - mayShareCommit: `false` for statements that start or end a transaction, or run in one.
    ///   - work: One statement; it runs on the database queue.
    /// - Returns: What `work` returns, and whether the session has a transaction open after it.
    func run<Result: Sendable>(
        session: UInt64, mayShareCommit: Bool, _ work: @escaping @Sendable (Database) throws -> Result
    ) async throws -> (result: Result, transactionOpen: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job(session: session, mayShareCommit: mayShareCommit) { db in
                let result = Swift.Result { try work(db) }
                return { sharedCommitError, transactionOpen in
                    if let sharedCommitError {
                        continuation.resume(throwing: sharedCommitError)
                    } else {
                        continuation.resume(with: result.map { ($0, transactionOpen) })
                    }
                }
            }
            submit(job)
        }
    }

    /// Closes the connection; later work fails with GRDB's "connection is closed" error.
    func close() {
        try? database.close()
    }

    private func submit(_ job: Job) {
        let schedule = state.withLock { state in
            state.incoming.append(job)
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
        if schedule {
            database.asyncWriteWithoutTransaction { db in self.drain(db) }
        }
    }

    // MARK: - On the database queue

    /// Runs what has been submitted, until nothing is left.
    private func drain(_ db: Database) {
        while true {
            let jobs: [Job] = state.withLock { state in
                let jobs = state.incoming
                state.incoming.removeAll(keepingCapacity: true)
                if jobs.isEmpty { state.drainScheduled = false }
                return jobs
            }
            guard !jobs.isEmpty else { return }
            process(jobs, db)
        }
    }

    /// Runs `jobs` in order: consecutive shareable ones in shared commits, the others alone,
    /// other sessions' jobs parked while a transaction is open.
    private func process(_ jobs: [Job], _ db: Database) {
        var queue = jobs[...]
        var group: [Job] = []
        while let job = queue.popFirst() {
            let owner = state.withLock { $0.owner }
            if let owner, owner != job.session {
                state.withLock { $0.parked.append(job) }
                continue
            }
            if owner == nil, job.mayShareCommit {
                group.append(job)
                if group.count == Self.maximumSharedCommit {
                    commitTogether(group, db)
                    group.removeAll(keepingCapacity: true)
                }
                continue
            }
            commitTogether(group, db)
            group.removeAll(keepingCapacity: true)
            let completion = job.work(db)
            let transactionOpen = db.isInsideTransaction
            let released: [Job] = state.withLock { state in
                state.owner = transactionOpen ? job.session : nil
                guard !transactionOpen else { return [] }
                defer { state.parked.removeAll() }
                return state.parked
            }
            completion(nil, transactionOpen)
            queue = released[...] + queue
        }
        commitTogether(group, db)
    }

    /// Runs `group` inside one transaction and answers each caller after the commit; a group of
    /// one runs on its own (SQLite commits it).
    private func commitTogether(_ group: [Job], _ db: Database) {
        guard group.count > 1 else {
            if let job = group.first { job.work(db)(nil, false) }
            return
        }
        do {
            try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        } catch {
            // Nothing ran: each statement runs on its own instead.
            for job in group { job.work(db)(nil, false) }
            return
        }
        var completions: [Completion] = []
        completions.reserveCapacity(group.count)
        for job in group {
            completions.append(job.work(db))
            guard db.isInsideTransaction else { break }
        }
        guard db.isInsideTransaction else {
            // The last statement's error made SQLite roll the whole transaction back: what ran
            // before it is undone too. The statements not run yet get a transaction of their own.
            let undone = StorageError.queryFailed(operation: "a shared commit", message: "SQLite rolled the transaction back")
            for completion in completions { completion(undone, false) }
            commitTogether(Array(group[completions.count...]), db)
            return
        }
        var failure: (any Error)?
        do {
            try db.cachedStatement(sql: "COMMIT").execute()
        } catch {
            failure = error
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
        }
        for completion in completions { completion(failure, false) }
    }
}
