/// What `/v1/events` accepts, so that a token or an API key shipped in every copy of an app
/// cannot grow the database without bound.
///
/// ```swift
/// var configuration = TandemServerConfiguration(database: location)
/// configuration.analytics.quota = AnalyticsQuota(maximumEvents: 100_000, maximumBytes: nil)
/// configuration.analytics.retention = .seconds(30 * 24 * 3600)
/// ```
public struct AnalyticsLimits: Sendable {
    /// Batches per second one app may send, whatever its credential (`429` beyond).
    public var perClientRate = RateLimitPolicy(requestsPerSecond: 20, burst: 100)
    /// Batches per second one user of one app may send (`429` beyond); API keys have no user.
    public var perSubjectRate = RateLimitPolicy(requestsPerSecond: 1, burst: 30)
    /// How much one app may have stored (`429 quota_exceeded` beyond, until retention frees room).
    public var quota = AnalyticsQuota(maximumEvents: 1_000_000, maximumBytes: 256 * 1024 * 1024)
    /// The most top-level properties one event may have (`400` beyond).
    public var maximumPropertyCount = 32
    /// The most bytes one event's properties may take as JSON (`413` beyond).
    public var maximumPropertyBytes = 4096
    /// How long events are kept after they were received; `nil` keeps them forever.
    public var retention: Duration? = .seconds(90 * 24 * 3600)

    /// The default limits.
    public init() {}
}
