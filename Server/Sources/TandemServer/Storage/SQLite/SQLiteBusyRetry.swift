import GRDB

/// Retries work that SQLite refused with `SQLITE_BUSY` without waiting in its busy handler.
///
/// SQLite does not always wait for a lock: when waiting could deadlock (a connection holding a
/// read lock wants to write while another does the same, as when several processes open a new
/// file and switch it to write-ahead logging at once) it returns `SQLITE_BUSY` at once, busy
/// timeout or not. Opening a database and each migration step are safe to run again from the
/// start, so they retry here, with a growing pause, until a deadline.
enum SQLiteBusyRetry {
    /// How long work keeps being retried before the last `SQLITE_BUSY` is reported. SQLite's
    /// busy handler is not fair: servers starting together on one file take turns at the write
    /// lock step by step, and on a loaded machine one of them can lose every turn for half a
    /// minute (four servers migrating at once did, beside the test suite's other processes).
    /// Every contender finishes its bounded work well within this.
    static let patience: Duration = .seconds(120)

    /// Runs `work`, again after a pause each time it fails with `SQLITE_BUSY`, until it succeeds,
    /// fails otherwise, or ``patience`` has passed.
    static func run<Result>(_ work: () async throws -> Result) async throws -> Result {
        // A wait on SQLite's lock, held by other processes: only real time frees it.
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        var pause = Duration.milliseconds(5)
        while true {
            do {
                return try await work()
            } catch let error where isBusy(error) && clock.now + pause < deadline {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(250))
            }
        }
    }

    /// Whether `error` is SQLite's "database is locked", however it was wrapped by SQLKit.
    static func isBusy(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY
    }
}
