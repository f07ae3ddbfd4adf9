/// When a destination's circuit opens, how long it stays open and how many latencies it keeps.
/// Coded with durations in seconds; a missing key takes its default.
public struct CircuitBreakerSettings: Sendable, Hashable, Codable {
    /// Consecutive failures (connect errors, timeouts, 5xx) within ``failureWindow`` that open
    /// the circuit. Default 5.
    public var failureThreshold: Int
    /// How far back failures count toward the threshold. Default 60 s.
    public var failureWindow: Duration
    /// How long an open circuit refuses calls before it lets one probe through. Default 30 s.
    public var openDuration: Duration
    /// How many recent latencies each destination keeps for its p50 and p95. Default 100.
    public var latencySampleCount: Int

    /// Creates settings; every parameter has the default described on its property.
    public init(
        failureThreshold: Int = 5,
        failureWindow: Duration = .seconds(60),
        openDuration: Duration = .seconds(30),
        latencySampleCount: Int = 100
    ) {
        self.failureThreshold = failureThreshold
        self.failureWindow = failureWindow
        self.openDuration = openDuration
        self.latencySampleCount = latencySampleCount
    }

    /// The first reason these settings cannot be used, or `nil` when they can.
    public var problem: String? {
        if failureThreshold < 1 { return "circuitBreaker.failureThreshold is below 1" }
        if failureWindow <= .zero { return "circuitBreaker.failureWindow is not positive" }
        if openDuration <= .zero { return "circuitBreaker.openDuration is not positive" }
        if latencySampleCount < 1 { return "circuitBreaker.latencySampleCount is below 1" }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case failureThreshold, failureWindowSeconds, openDurationSeconds, latencySampleCount
    }

    /// Decodes settings; a missing key takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = CircuitBreakerSettings()
        failureThreshold =
            try container.decodeIfPresent(Int.self, forKey: .failureThreshold) ?? defaults.failureThreshold
        failureWindow =
            try container.decodeSecondsIfPresent(forKey: .failureWindowSeconds)
            ?? defaults.failureWindow
        openDuration =
            try container.decodeSecondsIfPresent(forKey: .openDurationSeconds)
            ?? defaults.openDuration
        latencySampleCount =
            try container.decodeIfPresent(Int.self, forKey: .latencySampleCount) ?? defaults.latencySampleCount
    }

    /// Encodes the settings with durations in seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(failureThreshold, forKey: .failureThreshold)
        try container.encode(failureWindow.seconds, forKey: .failureWindowSeconds)
        try container.encode(openDuration.seconds, forKey: .openDurationSeconds)
        try container.encode(latencySampleCount, forKey: .latencySampleCount)
    }
}
