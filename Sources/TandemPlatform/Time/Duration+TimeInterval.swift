#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Duration {
    /// The duration in seconds, for date arithmetic on a ``WallClock``'s time:
    ///
    /// ```swift
    /// let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
    /// ```
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
