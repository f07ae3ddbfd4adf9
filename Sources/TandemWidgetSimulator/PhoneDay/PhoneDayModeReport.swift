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

    /// A push that reached the mode's device, and what the phone did with it.
    public struct Push: Codable, Hashable, Sendable {
        /// What the phone did with a push.
        public enum Outcome: String, Codable, Hashable, Sendable {
            /// WidgetKit reloaded the widgets, or iOS launched the host for it.
            case applied
            /// Dropped: the day's widget push budget or the hour's background pushes were spent.
            case overBudget = "over-budget"
            /// Not delivered to the app: Background App Refresh off, Low Power Mode, or the
            /// user force-quit the app.
            case notDelivered = "not-delivered"
        }

        /// When it arrived.
        public var date: Date
        /// What it asked.
        public var kind: PhoneDayPush.Kind
        /// What came of it.
        public var outcome: Outcome
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
    /// The pushes that reached the device, in time order (none for a mode without pushes).
    public var pushes: [Push] = []
    /// The reloads the busiest widget had left of the day's budget when the phone was first
    /// unlocked after its restart (``PhoneDaySettings/firstUnlock``); `nil` when it did not restart.
    public var reloadsLeftAtFirstUnlock: Int?
    /// The user's taps on Approve, in time order (none unless ``PhoneDaySettings/taps``).
    public var taps: [PhoneDayTap] = []

    /// The taps executed within `seconds` (in the app's process, before the intent returned).
    public func tapsExecuted(within seconds: TimeInterval) -> Int {
        taps.filter { ($0.secondsToExecution ?? .infinity) <= seconds }.count
    }

    /// The taps that expired unexecuted by `date` (the widget said "Expired — tap again").
    public func tapsExpired(by date: Date) -> Int { taps.filter { $0.expired(by: date) }.count }

    /// The pushes of `outcome`, of every kind or of `kind`.
    public func pushes(_ outcome: Push.Outcome, kind: PhoneDayPush.Kind? = nil) -> Int {
        pushes.filter { $0.outcome == outcome && (kind == nil || $0.kind == kind) }.count
    }

    /// The most WidgetKit pushes applied in one day of the mode (days counted from `start`),
    /// to hold against ``PhoneDaySettings/widgetPushBudget``.
    public func widgetPushesUsed(from start: Date) -> Int {
        var perDay: [Int: Int] = [:]
        for push in pushes where push.kind == .widgets && push.outcome == .applied {
            perDay[Int((push.date.timeIntervalSince(start) / 86_400).rounded(.down)), default: 0] += 1
        }
        return perDay.values.max() ?? 0
    }

    /// The most background pushes applied within 60 minutes, to hold against
    /// ``PhoneDaySettings/backgroundPushesPerHour``.
    public var backgroundPushesInBusiestHour: Int {
        let dates = pushes.filter { $0.kind == .background && $0.outcome == .applied }.map(\.date)
        return dates.map { start in dates.filter { $0 >= start && $0.timeIntervalSince(start) < 3_600 }.count }.max() ?? 0
    }

    /// The median staleness, in seconds.
    public var p50Staleness: TimeInterval { percentile(50) }
    /// The 95th percentile of staleness, in seconds.
    public var p95Staleness: TimeInterval { percentile(95) }
    /// The largest staleness sampled, in seconds.
    public var maximumStaleness: TimeInterval { samples.map(\.staleness).max() ?? 0 }

    /// The `percent`th percentile of the samples' staleness (nearest rank), of the whole day or
    /// of the samples from `date` on; 0 without samples.
    public func percentile(_ percent: Double, from start: Date? = nil) -> TimeInterval {
        let kept = start.map { start in samples.filter { sample in sample.date >= start } } ?? samples
        let sorted = kept.map(\.staleness).sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The largest staleness sampled from `date` on, in seconds.
    public func maximumStaleness(from date: Date) -> TimeInterval {
        samples.filter { $0.date >= date }.map(\.staleness).max() ?? 0
    }
}
