#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemSharedContainer

/// When a ``DataWidgetProvider`` counts rows as fresh and when it asks to be reloaded.
///
/// The defaults fit WidgetKit's daily budget of about 40 to 70 reloads: rows stay fresh
/// 40 minutes (at most 36 reloads a day for a widget that always finds its rows expired), and
/// after writing a request the widget asks for no reload at all, because the host reloads every
/// widget when its background run fulfils a request. A widget whose host does not reload it
/// looks again on its own:
///
/// ```swift
/// let schedule = DataWidgetSchedule(freshness: 60 * 60, requestReload: 15 * 60)
/// ```
///
/// A direct-mode widget that WidgetKit pushes reach (the host wrote a `WidgetPushStatus`) asks
/// only for a reload every ``pushSafetyNet`` (6 hours) and polls again when pushes stop; a
/// widget that cannot read its data (before the first unlock) waits ``retry``, then twice as
/// long each time, up to ``maximumUnavailableRetry``. The article "Building a business widget"
/// gives the rules.
public struct DataWidgetSchedule: Hashable, Sendable {
    /// Seconds rows stay fresh after they were fetched; a snapshot the host marked to expire
    /// sooner expires sooner. Also the lifetime of the snapshots written in direct mode.
    public var freshness: TimeInterval
    /// Seconds after writing a request before the widget looks again, expecting the host to
    /// have fulfilled it, doubled for each request in a row the host left unanswered, up to
    /// ``maximumRequestReload``; `nil` (the default) for never: the host's fulfilment reloads the
    /// widgets (`ExtensionCommunicationStep` with a `WidgetReloader`).
    public var requestReload: TimeInterval?
    /// The longest wait between two requests for the same rows; also how long a widget whose
    /// host gets no background time (Background App Refresh off, Low Power Mode) waits before
    /// looking again.
    public var maximumRequestReload: TimeInterval
    /// Seconds before trying again after a failure: the server unreachable, the device locked,
    /// a record unreadable.
    public var retry: TimeInterval
    /// In direct mode, seconds after which fresh rows are fetched again when the timeline is
    /// reloaded; `nil` (the default) keeps fresh rows until they expire. A widget that receives
    /// WidgetKit push updates sets it: WidgetKit reloads the timeline on a push without saying
    /// why, so only a fetch can tell that the rows changed.
    public var revalidation: TimeInterval?
    /// In direct mode, seconds a widget that takes WidgetKit pushes waits before reloading on
    /// its own: its fresh rows count as fresh until then, since a push reloads it when they
    /// change. A widget that no push reached for this long polls again (on ``freshness``).
    public var pushSafetyNet: TimeInterval
    /// The longest wait between two reloads that cannot read the widget's secrets or records
    /// (the device not unlocked since it started): ``retry`` for the first, doubled for each
    /// one after it, up to this.
    public var maximumUnavailableRetry: TimeInterval

    /// How long rows stay fresh by default: 40 minutes, about 36 reloads a day at most, within
    /// the low end of WidgetKit's budget. The host's snapshots live as long by default.
    public static let defaultFreshness: TimeInterval = 40 * 60

    /// How long a widget that takes pushes waits for one by default: 6 hours, 4 reloads a day
    /// of its own.
    public static let defaultPushSafetyNet: TimeInterval = 6 * 60 * 60

    /// A schedule; every interval is at least one second.
    ///
    /// - Parameters:
    ///   - freshness: Seconds rows stay fresh; 40 minutes by default.
    ///   - requestReload: Seconds to wait for the host after a request (15 minutes or more
    ///     keeps a widget within its budget), or `nil`, the default, to wait for the host's reload.
    ///   - maximumRequestReload: The longest wait between requests; 2 hours by default.
    ///   - retry: Seconds before trying again after a failure; 15 minutes by default.
    ///   - revalidation: In direct mode, seconds after which fresh rows are fetched again on a
    ///     reload (for widgets updated by push); `nil`, the default, for never.
    ///   - pushSafetyNet: In direct mode, seconds between the reloads a widget that takes pushes
    ///     asks for; 6 hours by default.
    ///   - maximumUnavailableRetry: The longest wait between reloads that cannot read the
    ///     widget's data; 1 hour by default, and never shorter than `retry`.
    public init(
        freshness: TimeInterval = defaultFreshness, requestReload: TimeInterval? = nil,
        maximumRequestReload: TimeInterval = 2 * 60 * 60, retry: TimeInterval = 15 * 60, revalidation: TimeInterval? = nil,
        pushSafetyNet: TimeInterval = defaultPushSafetyNet, maximumUnavailableRetry: TimeInterval = 60 * 60
    ) {
        self.revalidation = revalidation.map { max(0, $0) }
        self.freshness = max(1, freshness)
        self.requestReload = requestReload.map { max(1, $0) }
        self.maximumRequestReload = max(self.requestReload ?? 1, maximumRequestReload)
        self.retry = max(1, retry)
        self.pushSafetyNet = max(1, pushSafetyNet)
        self.maximumUnavailableRetry = max(self.retry, maximumUnavailableRetry)
    }

    /// When `snapshot` stops being fresh: its own expiry or `freshness` after its fetch, the sooner.
    public func expiry(of snapshot: Snapshot) -> Date {
        min(snapshot.expiresAt, snapshot.fetchedAt.addingTimeInterval(freshness))
    }

    /// The wait after the `count`th request in a row the host has not answered (1 for the first),
    /// or `nil` when the widget waits for the host's reload.
    func requestReload(afterRequest count: Int) -> TimeInterval? {
        guard let requestReload else { return nil }
        let doublings = min(max(count - 1, 0), 30)
        return min(requestReload * Double(1 << doublings), maximumRequestReload)
    }

    /// The wait after an unavailable reload that follows `count` others in a row (0 for the
    /// first): ``retry`` doubled `count` times, within `retry...maximumUnavailableRetry`.
    func unavailableRetry(afterUnavailable count: Int) -> TimeInterval {
        let doublings = min(max(count, 0), 30)
        return min(retry * Double(1 << doublings), maximumUnavailableRetry)
    }
}
