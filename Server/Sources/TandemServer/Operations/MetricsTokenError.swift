/// A metrics token that cannot be used (too short, or not visible ASCII).
public struct MetricsTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why.
    public let reason: String

    public var description: String { reason }
}
