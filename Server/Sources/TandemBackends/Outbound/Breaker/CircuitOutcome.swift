/// How a call that a ``CircuitBreaker`` let through ended, as far as the destination's health goes.
public enum CircuitOutcome: Sendable, Hashable {
    /// The destination answered with a status below 500.
    case success
    /// The connection failed, the call timed out, or the destination answered with a 5xx.
    case failure
    /// The call ended for a reason that says nothing about the destination's health (refused by
    /// a rule, cancelled, a body over the size cap). A probe that ends so lets the next call probe.
    case neutral
}
