import Foundation

/// A point in time as stored: whole milliseconds since 1970 (UTC), the one time format of every
/// table. There is no "current timestamp": the current time is read from the `WallClock` the
/// caller was given (`Timestamp(clock.now)`), so that tests move it.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// Creates a timestamp from milliseconds since 1970.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The instant `date`, rounded down to whole milliseconds.
    ///
    /// ```swift
    /// let now = Timestamp(clock.now)
    /// ```
    public init(_ date: Date) {
        self.init(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// This time moved by `duration` (negative durations move it back).
    public func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(milliseconds: milliseconds + seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Earlier times sort first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
