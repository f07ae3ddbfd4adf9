import Synchronization

/// A circuit per destination: after ``CircuitBreakerSettings/failureThreshold`` failures in a
/// row within ``CircuitBreakerSettings/failureWindow``, the destination's calls fail fast for
/// ``CircuitBreakerSettings/openDuration``; then one probe goes through, and its success closes
/// the circuit while its failure opens it again. It also counts each destination's calls and
/// keeps its recent latencies.
///
/// Time comes from the `now` closure, so a test moves a clock instead of waiting.
///
/// ```swift
/// let permit = try breaker.admit("https://erp.example.com")  // throws .circuitOpen(retryAfter:)
/// breaker.record(.success, latency: .milliseconds(120), for: permit)
/// let page = breaker.snapshot()                                 // [DestinationHealth]
/// ```
public final class CircuitBreaker: Sendable {
    private enum Phase {
        case closed(failures: [ContinuousClock.Instant])
        case open(until: ContinuousClock.Instant)
        case halfOpen(probeSince: ContinuousClock.Instant?)
    }

    private struct Destination {
        var phase: Phase = .closed(failures: [])
        var successes = 0
        var failures = 0
        var rejections = 0
        var latencies: LatencyWindow
    }

    /// The thresholds and durations in force.
    public let settings: CircuitBreakerSettings
    private let now: @Sendable () -> ContinuousClock.Instant
    private let destinations = Mutex<[String: Destination]>([:])

    /// Creates a breaker.
    ///
    /// - Parameters:
    ///   - settings: When circuits open and for how long.
    ///   - now: The current time (default the continuous clock's); tests pass a clock they move.
    public init(
        settings: CircuitBreakerSettings = CircuitBreakerSettings(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.settings = settings
        self.now = now
    }

    /// Lets one call to `destination` go ahead, or refuses it while the circuit is open.
    ///
    /// An open circuit whose time is up lets one probe through and refuses other calls until
    /// the probe is recorded; a probe never recorded within ``CircuitBreakerSettings/openDuration``
    /// counts as lost and another call may probe.
    ///
    /// - Throws: ``OutboundCallError/circuitOpen(retryAfter:)``.
    public func admit(_ destination: String) throws(OutboundCallError) -> CircuitPermit {
        let now = now()
        let settings = settings
        let decision: Result<Bool, OutboundCallError> = destinations.withLock { destinations in
            var entry =
                destinations[destination]
                ?? Destination(latencies: LatencyWindow(capacity: settings.latencySampleCount))
            defer { destinations[destination] = entry }
            switch entry.phase {
            case .closed:
                return .success(false)
            case .open(let until) where now < until:
                entry.rejections += 1
                return .failure(.circuitOpen(retryAfter: until - now))
            case .halfOpen(let probeSince?) where now - probeSince < settings.openDuration:
                entry.rejections += 1
                return .failure(.circuitOpen(retryAfter: probeSince + settings.openDuration - now))
            case .open, .halfOpen:
                entry.phase = .halfOpen(probeSince: now)
                return .success(true)
            }
        }
        let isProbe = try decision.get()
        return CircuitPermit(destination: destination, isProbe: isProbe)
    }

    /// Records how the call `permit` let through ended, and how long it took.
    ///
    /// A success closes a half-open circuit (when it was the probe) and clears the failure run;
    /// a failure adds to the run, opening the circuit at the threshold, or reopens it when it was
    /// the probe. `latency` is kept for successes and failures.
    public func record(_ outcome: CircuitOutcome, latency: Duration, for permit: CircuitPermit) {
        let now = now()
        let settings = settings
        destinations.withLock { destinations in
            guard var entry = destinations[permit.destination] else { return }
            defer { destinations[permit.destination] = entry }
            switch outcome {
            case .success:
                entry.successes += 1
                entry.latencies.add(latency)
                switch entry.phase {
                case .closed:
                    entry.phase = .closed(failures: [])
                case .halfOpen where permit.isProbe:
                    entry.phase = .closed(failures: [])
                case .open, .halfOpen:
                    break
                }
            case .failure:
                entry.failures += 1
                entry.latencies.add(latency)
                switch entry.phase {
                case .closed(let failures):
                    let recent = failures.filter { now - $0 < settings.failureWindow } + [now]
                    entry.phase =
                        recent.count >= settings.failureThreshold
                        ? .open(until: now + settings.openDuration) : .closed(failures: recent)
                case .halfOpen where permit.isProbe:
                    entry.phase = .open(until: now + settings.openDuration)
                case .open, .halfOpen:
                    break
                }
            case .neutral:
                if permit.isProbe, case .halfOpen = entry.phase {
                    entry.phase = .halfOpen(probeSince: nil)
                }
            }
        }
    }

    /// Every destination seen so far, sorted by destination.
    public func snapshot() -> [DestinationHealth] {
        let now = now()
        let window = settings.failureWindow
        return destinations.withLock { destinations in
            destinations.map { destination, entry in Self.health(destination, entry, now: now, window: window) }
        }
        .sorted { $0.destination < $1.destination }
    }

    /// One destination's health; `nil` for a destination never called.
    public func health(of destination: String) -> DestinationHealth? {
        let now = now()
        let window = settings.failureWindow
        return destinations.withLock { destinations in
            destinations[destination].map { Self.health(destination, $0, now: now, window: window) }
        }
    }

    private static func health(
        _ destination: String, _ entry: Destination, now: ContinuousClock.Instant, window: Duration
    ) -> DestinationHealth {
        let state: DestinationHealth.CircuitState
        var recentFailures = 0
        switch entry.phase {
        case .closed(let failures):
            state = .closed
            recentFailures = failures.filter { now - $0 < window }.count
        case .open(let until) where now < until:
            state = .open(retryAfter: until - now)
        case .open, .halfOpen:
            state = .halfOpen
        }
        return DestinationHealth(
            destination: destination, state: state, successes: entry.successes, failures: entry.failures,
            rejections: entry.rejections, recentFailures: recentFailures, latency: entry.latencies.summary)
    }
}
