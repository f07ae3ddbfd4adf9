import Logging
import ServiceLifecycle
import TandemPlatform

/// Keeps storage tidy while the server runs and closes it when the server stops: every
/// `interval` on its clock it erases sealed successors whose grace window has ended (so their
/// plaintext is unrecoverable from the database even if no retry ever reads them), deletes
/// expired browser sessions and unredeemed codes, and deletes analytics events older than the
/// retention period; on graceful shutdown it closes the database connections.
struct StorageMaintenanceService: Service {
    /// The database to sweep and finally close.
    let database: ServerDatabase
    /// Time between sweeps.
    let interval: Duration
    /// How long analytics events are kept after reception; `nil` keeps them.
    let eventRetention: Duration?
    /// Receives sweep failures and counts.
    let logger: Logger
    /// What the service waits on between sweeps, and the time each sweep is made as of.
    var clock: any WallClock = SystemClock()

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    break
                }
                do {
                    try await sweep(now: Timestamp(clock.now))
                } catch {
                    logger.warning("sweeping storage failed", metadata: ["error": "\(error)"])
                }
            }
        }
        await database.shutdown()
    }

    /// One sweep as of `now`.
    func sweep(now: Timestamp) async throws(StorageError) {
        let erased = try await database.tokens.eraseExpiredSealedSuccessors(now: now)
        if erased > 0 { logger.debug("erased expired sealed successors", metadata: ["count": "\(erased)"]) }
        let deleted = try await database.browserSessions.deleteExpiredSessions(now: now)
            + database.codes.deleteExpiredCodes(now: now)
            + database.signInFailures.deleteForgottenFailures(now: now)
        if deleted > 0 { logger.debug("deleted expired codes, sessions and sign-in failures", metadata: ["count": "\(deleted)"]) }
        if let eventRetention {
            let expired = try await database.analytics.deleteEvents(receivedBefore: now.adding(.zero - eventRetention))
            if expired > 0 { logger.debug("deleted analytics events past retention", metadata: ["count": "\(expired)"]) }
        }
    }
}
