/// Leave from a ``CircuitBreaker`` to make one call; hand it back with the outcome.
public struct CircuitPermit: Sendable, Hashable {
    /// The destination the call goes to.
    public let destination: String
    /// Whether this call is the half-open circuit's one probe.
    public let isProbe: Bool
}
