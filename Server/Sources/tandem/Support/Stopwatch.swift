/// Measures elapsed time on the monotonic clock, which wall-clock adjustments do not move.
struct Stopwatch {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// Starts measuring now.
    init() {
        start = clock.now
    }

    /// The time since the stopwatch started.
    var elapsed: Duration { clock.now - start }

    /// How long `body` takes to run.
    static func measure(_ body: () throws -> Void) rethrows -> Duration {
        let stopwatch = Stopwatch()
        try body()
        return stopwatch.elapsed
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { seconds * 1000 }
}
