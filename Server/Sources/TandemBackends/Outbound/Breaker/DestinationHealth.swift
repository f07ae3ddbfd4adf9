/// One destination's circuit and call statistics, for an operator's page.
public struct DestinationHealth: Sendable, Hashable {
    /// Where a destination's circuit stands.
    public enum CircuitState: Sendable, Hashable {
        /// Calls go through.
        case closed
        /// Calls fail fast for `retryAfter` more.
        case open(retryAfter: Duration)
        /// One probe call may go through (or is under way); its outcome closes or reopens the circuit.
        case halfOpen
    }

    /// The destination's origin, such as `https://erp.example.com`.
    public let destination: String
    /// The circuit's state now.
    public let state: CircuitState
    /// Calls that got a response below 500.
    public let successes: Int
    /// Calls that failed to connect, timed out or got a 5xx.
    public let failures: Int
    /// Calls refused at once because the circuit was open.
    public let rejections: Int
    /// Failures since the last success, within the failure window.
    public let recentFailures: Int
    /// Latencies of the last calls that succeeded or failed.
    public let latency: LatencySummary
}
