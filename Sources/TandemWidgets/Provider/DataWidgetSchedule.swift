#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemSharedContainer

/// When a ``DataWidgetProvider`` counts rows as fresh and when it asks to be reloaded.
///
/// ```swift
/// let schedule = DataWidgetSchedule(freshness: 30 * 60, requestReload: 90)
/// ```
public struct DataWidgetSchedule: Hashable, Sendable {
    /// Seconds rows stay fresh after they were fetched; a snapshot the host marked to expire
    /// sooner expires sooner. Also the lifetime of the snapshots written in direct mode.
    public var freshness: TimeInterval
    /// Seconds after writing a request before the widget looks again, expecting the host to
    /// have fulfilled it. Doubled for each request in a row the host left unanswered, up to
    /// ``maximumRequestReload``.
    public var requestReload: TimeInterval
    /// The longest wait between two requests for the same rows.
    public var maximumRequestReload: TimeInterval
    /// Seconds before trying again after a failure: the server unreachable, the device locked,
    /// a record unreadable.
    public var retry: TimeInterval

    /// A schedule; every interval is at least one second.
    ///
    /// - Parameters:
    ///   - freshness: Seconds rows stay fresh; 15 minutes by default.
    ///   - requestReload: Seconds to wait for the host after a request; 2 minutes by default.
    ///   - maximumRequestReload: The longest wait between requests; 1 hour by default.
    ///   - retry: Seconds before trying again after a failure; 15 minutes by default.
    public init(
        freshness: TimeInterval = 15 * 60, requestReload: TimeInterval = 2 * 60,
        maximumRequestReload: TimeInterval = 60 * 60, retry: TimeInterval = 15 * 60
    ) {
        self.freshness = max(1, freshness)
        self.requestReload = max(1, requestReload)
        self.maximumRequestReload = max(self.requestReload, maximumRequestReload)
        self.retry = max(1, retry)
    }

    /// When `snapshot` stops being fresh: its own expiry or `freshness` after its fetch, the sooner.
    public func expiry(of snapshot: Snapshot) -> Date {
        min(snapshot.expiresAt, snapshot.fetchedAt.addingTimeInterval(freshness))
    }

    /// The wait after the `count`th request in a row the host has not answered (1 for the first).
    func requestReload(afterRequest count: Int) -> TimeInterval {
        let doublings = min(max(count - 1, 0), 30)
        return min(requestReload * Double(1 << doublings), maximumRequestReload)
    }
}
