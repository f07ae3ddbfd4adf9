#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one clock behaviour depends on: what time it is, and waiting. Rate limits, sign-in
/// delays, polling intervals, code and passcode lifetimes, leases, refresh grace and snapshot
/// freshness all read the time from a `WallClock` passed in, so that a test moves time with a
/// `ManualClock` (TandemTestSupport) instead of sleeping through it.
///
/// ```swift
/// struct Throttle {
///     var clock: any WallClock = SystemClock()
///     func wait() async throws { try await clock.sleep(for: .seconds(2)) }
/// }
/// ```
///
/// Measuring how long something took, for a log line, is not behaviour and may use
/// `ContinuousClock` directly; so may a wait on the operating system itself (a directory watch's
/// timeout), which no test clock can speed up.
public protocol WallClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Suspends the caller until `duration` has passed on this clock.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws
}

extension WallClock {
    /// Suspends the caller until `deadline` on this clock; returns at once for a deadline that
    /// has passed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Date) async throws {
        let remaining = deadline.timeIntervalSince(now)
        guard remaining > 0 else { return try Task.checkCancellation() }
        try await sleep(for: .seconds(remaining))
    }
}

extension WallClock where Self == SystemClock {
    /// The system's clock.
    public static var system: SystemClock { SystemClock() }
}
