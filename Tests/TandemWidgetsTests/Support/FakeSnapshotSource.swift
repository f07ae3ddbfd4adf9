import Foundation
import TandemPlatform
import TandemWidgetModel
import TandemWidgets

/// Stands in for the host's snapshot in the shared container: when rows were last fetched.
/// Its timelines are what a business provider makes of it: fresh rows, then the same rows
/// marked stale once they are over two hours old (at 2 h 10 min, past a 10-minute grace).
final class FakeSnapshotSource: Sendable {
    private let fetchedAtDate: Locked<Date>
    static let staleAfter: TimeInterval = 2 * 3_600 + 600

    init(fetchedAt: Date) {
        fetchedAtDate = Locked(fetchedAt)
    }

    /// The host fetched new rows at `date`.
    func fetched(at date: Date) {
        fetchedAtDate.withLock { $0 = date }
    }

    func timeline(now: Date) -> Timeline<WidgetContentEntry> {
        let fetchedAt = fetchedAtDate.withLock { $0 }
        let staleAt = fetchedAt.addingTimeInterval(Self.staleAfter)
        var entries: [WidgetContentEntry] = []
        if now < staleAt { entries.append(.fresh(12, at: now)) }
        let age = max(now, staleAt).timeIntervalSince(fetchedAt)
        entries.append(WidgetContentEntry(date: max(now, staleAt), content: .rows(12, state: .stale(age: age))))
        return Timeline(entries: entries, policy: .never)
    }
}
