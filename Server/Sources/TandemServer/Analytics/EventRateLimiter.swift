import Hummingbird
import TandemPlatform

/// The two rate limits of `/v1/events`: one bucket per app, whatever its credential (an API key
/// ships in every copy of its app), and one per user of an app.
struct EventRateLimiter: Sendable {
    private let perClient: RateLimiter
    private let perSubject: RateLimiter

    /// Limiters with `limits`' rates, refilling on `clock`.
    init(limits: AnalyticsLimits, clock: any WallClock) {
        perClient = RateLimiter(policy: limits.perClientRate, clock: clock)
        perSubject = RateLimiter(policy: limits.perSubjectRate, clock: clock)
    }

    /// `nil` when `principal` may send a batch now, else the `429 rate_limited` error.
    ///
    /// The user's bucket is checked first, so one user over the limit does not spend the app's.
    func refusal(for principal: RequestPrincipal) -> HTTPError? {
        if let subject = principal.subject,
           case .limited(let retry) = perSubject.acquire("subject:\(principal.clientID):\(subject)") {
            return Self.tooManyRequests(.rateLimited, "this user of \(principal.clientID) sends too many event batches", retryAfter: retry)
        }
        if case .limited(let retry) = perClient.acquire("client:\(principal.clientID)") {
            return Self.tooManyRequests(.rateLimited, "\(principal.clientID) sends too many event batches", retryAfter: retry)
        }
        return nil
    }

    /// A `429` error with `code` and `Retry-After`.
    static func tooManyRequests(_ code: ResourceErrorCode, _ message: String, retryAfter seconds: Int) -> HTTPError {
        HTTPError(code, "\(message); retry after \(seconds) s").retryAfter(seconds)
    }
}
