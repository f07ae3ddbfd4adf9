import Synchronization

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }

    /// The clock as the closure a circuit breaker takes.
    var reading: @Sendable () -> ContinuousClock.Instant {
        { self.now }
    }
}
