import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `POST /v1/events`: analytics ingestion, for a host-app bearer token with `events.write` or an
/// app's API key.
///
/// Each app, and each user of an app, may send only so many batches (`429 rate_limited` with
/// `Retry-After`), and store only so much (`429 quota_exceeded`); one event's properties are
/// capped in number (`400`) and size (`413`) (see ``AnalyticsLimits``). The body
/// (`application/json`, at most the configured body size) is decoded and every event checked
/// before anything is written; the batch is then stored in one transaction. Event ids already
/// stored are skipped, so a client may resend a batch whose response it never received.
/// Answers `200 {"accepted": N, "duplicates": M}`.
struct EventsEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// Where events go.
    let storage: AnalyticsStore
    /// The largest body accepted.
    let maxBodySize: Int
    /// Rates, quota and property caps.
    let limits: AnalyticsLimits
    /// One bucket per app (`client:`) and per user of an app (`subject:`).
    let limiter: EventRateLimiter
    /// Receives one line per batch, never a credential.
    let logger: Logger
    /// What time it is: when events are received, and what the rate limits refill on.
    let clock: any WallClock

    /// An endpoint with `limits`, on `clock`.
    init(
        authorizer: RequestAuthorizer, storage: AnalyticsStore, maxBodySize: Int, limits: AnalyticsLimits = AnalyticsLimits(), logger: Logger,
        clock: any WallClock
    ) {
        self.authorizer = authorizer
        self.storage = storage
        self.maxBodySize = maxBodySize
        self.limits = limits
        limiter = EventRateLimiter(limits: limits, clock: clock)
        self.clock = clock
        self.logger = logger
    }

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/v1/events") { request, _ in try await respond(to: request) }
    }

    private func respond(to request: Request) async throws(HTTPError) -> Response {
        let principal = try await authorizer.check(
            request, requiring: OAuthScope.eventsWrite, logger: logger)
        if let refusal = limiter.refusal(for: principal) { throw refusal }
        let body = try await RequestBodyReader.collectJSON(request, limit: maxBodySize)
        let batch: EventBatch
        do {
            batch = try EventBatch(json: body.readableBytesView, clientID: principal.clientID, subject: principal.subject, limits: limits)
        } catch {
            throw HTTPError(.invalidRequest, error.message, status: error.tooLarge ? .contentTooLarge : nil)
        }
        let ingestion: EventIngestion
        do {
            ingestion = try await storage.storeEvents(batch.events, quota: limits.quota, now: Timestamp(clock.now))
        } catch .quotaExceeded(let message) {
            logger.notice("analytics quota reached", metadata: ["client_id": "\(principal.clientID)"])
            // Room comes back only as retention deletes old events: an hour is a fair wait.
            throw EventRateLimiter.tooManyRequests(.quotaExceeded, message, retryAfter: 3600)
        } catch {
            logger.error("storing analytics events failed", metadata: ["client_id": "\(principal.clientID)", "error": "\(error)"])
            throw .unavailable
        }
        logger.debug("analytics events stored", metadata: [
            "client_id": "\(principal.clientID)", "accepted": "\(ingestion.accepted)", "duplicates": "\(ingestion.duplicates)",
        ])
        return JSONResponse.make(["accepted": ingestion.accepted, "duplicates": ingestion.duplicates], noStore: true)
    }
}
