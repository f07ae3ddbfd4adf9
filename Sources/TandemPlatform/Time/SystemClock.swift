#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The system's clock: `Date()` for the time, `Task.sleep` for waiting. What every API takes by
/// default.
public struct SystemClock: WallClock {
    /// The system's clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

    /// `Task.sleep(for:)` on the continuous clock, which goes on while the device sleeps.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
