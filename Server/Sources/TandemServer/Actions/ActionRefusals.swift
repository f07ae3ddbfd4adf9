import Logging

/// How the action and step-up endpoints refuse a request without letting the refusal be used
/// against the server: a credential that may not act can be sent as often as anyone likes (the
/// kiosk's API key ships inside every copy of its app), so each refusal first spends from a
/// bucket — past it the answer is `429` and nothing is written — and its audit line
/// (`action.refused`, `stepup.refused`) is sampled per kind, app and address
/// (``AuditLog/recordRefusal(_:clientID:userID:source:detail:now:)``). The bucket is the user's
/// within the app when the credential names one (a user's refusals never limit a neighbour behind
/// the same address), the app's and address's otherwise.
struct ActionRefusals: Sendable {
    /// The bucket spent before any audit write: per user within the app, or per app and address
    /// for a credential that names no user.
    let limiter: RateLimiter
    /// Where the sampled lines go.
    let audit: AuditLog
    /// Receives a failure to write a line (the refusal stands).
    let logger: Logger

    /// Refuses with `error` after the bucket and the sampled audit line.
    ///
    /// - Returns: Never; throws `error`, or `429 rate_limited` once the bucket is empty.
    func refuse(
        _ error: HTTPError, kind: String = "action.refused", clientID: String, userID: String?, source: String, detail: String,
        now: Timestamp
    ) async throws(HTTPError) -> Never {
        if case .limited(let seconds) = limiter.acquire(clientID + " " + (userID.map { "user:" + $0 } ?? source)) {
            throw HTTPError(ResourceErrorCode.rateLimited, "too many refused requests; retry after \(seconds) s").retryAfter(seconds)
        }
        do {
            try await audit.recordRefusal(kind, clientID: clientID, userID: userID, source: source, detail: detail, now: now)
        } catch {
            logger.error("writing a refusal's audit line failed", metadata: ["kind": "\(kind)", "error": "\(error)"])
        }
        throw error
    }
}
