import Foundation

/// What one mode's widgets went through in a ``PhoneDay``: how stale they were, how many
/// reloads they spent, how often the host ran in the background.
public struct PhoneDayModeReport: Codable, Hashable, Sendable {
    /// A reload of one of the mode's widgets.
    public struct Reload: Codable, Hashable, Sendable {
        /// When.
        public var date: Date
        /// Whether it counted against the budget (the app was not in the foreground).
        public var counted: Bool
    }

    /// A background run the system granted the host.
    public struct BackgroundRun: Codable, Hashable, Sendable {
        /// When.
        public var date: Date
        /// Whether the host's work succeeded.
        public var succeeded: Bool
    }

    /// The mode's name, such as "brokered".
    public var mode: String
    /// The staleness samples, in time order.
    public var samples: [PhoneDaySample]
    /// The counted reloads of the instance that used the most.
    public var reloadsUsed: Int
    /// Every reload of every instance of the mode during the day.
    public var reloads: [Reload]
    /// Reloads WidgetKit refused because the day's budget was spent.
    public var declinedReloads: Int
    /// The background runs during the day.
    public var backgroundRuns: [BackgroundRun]
    /// Background-task requests the system refused (Background App Refresh off, Low Power Mode).
    public var refusedRequests: Int
    /// When the user opened the app.
    public var appOpens: [Date]

    /// The median staleness, in seconds.
    public var p50Staleness: TimeInterval { percentile(50) }
    /// The 95th percentile of staleness, in seconds.
    public var p95Staleness: TimeInterval { percentile(95) }
    /// The largest staleness sampled, in seconds.
    public var maximumStaleness: TimeInterval { samples.map(\.staleness).max() ?? 0 }

    /// The `percent`th percentile of the samples' staleness (nearest rank), 0 without samples.
    public func percentile(_ percent: Double) -> TimeInterval {
        let sorted = samples.map(\.staleness).sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The largest staleness sampled from `date` on, in seconds.
    public func maximumStaleness(from date: Date) -> TimeInterval {
        samples.filter { $0.date >= date }.map(\.staleness).max() ?? 0
    }
}
