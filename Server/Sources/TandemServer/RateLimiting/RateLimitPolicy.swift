/// How many requests a client may make to one endpoint: a sustained rate and a burst.
public struct RateLimitPolicy: Sendable, Hashable {
    /// Requests per second allowed over time.
    public var requestsPerSecond: Double
    /// How many requests may come at once after a quiet period.
    public var burst: Double

    /// Creates a policy; a burst below one is raised to one.
    public init(requestsPerSecond: Double, burst: Double) {
        self.requestsPerSecond = max(requestsPerSecond, 0.001)
        self.burst = max(burst, 1)
    }

    /// A policy of `perSecond` requests per second with a burst of twice that.
    public static func perSecond(_ perSecond: Double) -> RateLimitPolicy {
        RateLimitPolicy(requestsPerSecond: perSecond, burst: perSecond * 2)
    }
}
