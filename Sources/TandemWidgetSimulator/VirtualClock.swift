import Foundation
import TandemPlatform

/// A clock that moves only when told to, for tests and the ``TimelineSimulator``.
///
/// Share one clock between the simulator and the provider under test, so the provider sees
/// the simulated time:
///
/// ```swift
/// let clock = VirtualClock(Date(timeIntervalSince1970: 1_767_258_000))
/// clock.advance(by: 3_600)
/// ```
public final class VirtualClock: Sendable {
    private let current: Locked<Date>

    /// A clock that reads `start` until it is moved.
    public init(_ start: Date) {
        current = Locked(start)
    }

    /// The clock's time.
    public var now: Date {
        current.withLock { $0 }
    }

    /// Moves the clock to `date`; a date before ``now`` leaves it where it is, since time
    /// does not run backwards for a widget.
    public func set(_ date: Date) {
        current.withLock { $0 = max($0, date) }
    }

    /// Moves the clock `interval` seconds forward (a negative interval does nothing).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(max(0, interval)) }
    }
}
