import Logging
import ServiceLifecycle
import TandemPlatform

/// Keeps storage tidy while the server runs and closes it when the server stops: every
/// `interval` on its clock it erases sealed successors whose grace window has ended (so their
/// plaintext is unrecoverable from the database even if no retry ever reads them), deletes
/// expired browser sessions and unredeemed codes, deletes SSO passcodes a day after they
/// expired (long enough for a late reuse to still revoke what one released), and deletes
/// analytics events, audit events and the change feed's rows older than their retention periods and the push
/// registrations and step-up keys of ended sessions and the answers kept for idempotency keys
/// past their day; on graceful shutdown it closes the database connections.
struct StorageMaintenanceService: Service {
    /// The database to sweep and finally close.
    let database: ServerDatabase
    /// Time between sweeps.
    let interval: Duration
    /// How long analytics events are kept after reception; `nil` keeps them.
    let eventRetention: Duration?
    /// How long audit events are kept; `nil` keeps them.
    var auditRetention: Duration? = nil
    /// How long the change feed's rows are kept.
    var changeRetention: Duration = .seconds(7 * 24 * 3600)
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

    /// How long an expired SSO passcode is kept.
    static let ssoPasscodeKeep = Duration.seconds(24 * 3600)

    /// One sweep as of `now`.
    func sweep(now: Timestamp) async throws(StorageError) {
        let erased = try await database.tokens.eraseExpiredSealedSuccessors(now: now)
        if erased > 0 { logger.debug("erased expired sealed successors", metadata: ["count": "\(erased)"]) }
        let deleted = try await database.browserSessions.deleteExpiredSessions(now: now)
            + database.codes.deleteExpiredCodes(now: now)
            + database.signInFailures.deleteForgottenFailures(now: now)
            + database.sso.deleteExpiredSSOPasscodes(before: now.adding(.zero - Self.ssoPasscodeKeep))
            + database.dpopProofs.deleteExpiredProofs(now: now)
            + database.changes.deleteChanges(before: now.adding(.zero - changeRetention))
            + database.push.deleteEndedRegistrations()
            + database.stepUpKeys.deleteEndedKeys()
            + database.actions.deleteExpiredAnswers(now: now)
        if deleted > 0 { logger.debug("deleted expired codes, sessions, sign-in failures, proofs and old changes", metadata: ["count": "\(deleted)"]) }
        if let eventRetention {
            let expired = try await database.analytics.deleteEvents(receivedBefore: now.adding(.zero - eventRetention))
            if expired > 0 { logger.debug("deleted analytics events past retention", metadata: ["count": "\(expired)"]) }
        }
        if let auditRetention {
            let expired = try await database.audit.deleteAuditEvents(before: now.adding(.zero - auditRetention))
            if expired > 0 { logger.debug("deleted audit events past retention", metadata: ["count": "\(expired)"]) }
        }
    }
}
