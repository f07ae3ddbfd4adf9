import Foundation

/// How stale a mode's widget was at one moment of a ``PhoneDay``.
public struct PhoneDaySample: Codable, Hashable, Sendable {
    /// When it was taken.
    public var date: Date
    /// Seconds since the server published the first change the widget does not show; 0 when
    /// it shows the server's current data. A widget showing no data misses the data of before
    /// the day, published when the day was set up.
    public var staleness: TimeInterval

    /// A sample at `date`.
    public init(date: Date, staleness: TimeInterval) {
        self.date = date
        self.staleness = staleness
    }
}
