import Foundation
import Synchronization
import TandemAuth

/// Collects the steps a `RefreshCoordinator` reports during one call, for the JSON lines the
/// race commands print.
final class RefreshEventLog: Sendable {
    private let events = Mutex<[RefreshEvent]>([])

    /// Records `event`; pass this as the coordinator's `onEvent`.
    @Sendable func record(_ event: RefreshEvent) { events.withLock { $0.append(event) } }

    /// Forgets what was recorded (between rounds).
    func reset() { events.withLock { $0.removeAll() } }

    /// Whether `event` was recorded.
    func contains(_ event: RefreshEvent) -> Bool { events.withLock { $0.contains(event) } }

    /// How long the call waited for another process's refresh, in milliseconds.
    var waitedMilliseconds: Double {
        events.withLock { events in
            events.reduce(0) { total, event in
                if case .waitedForPeer(let seconds) = event { return total + seconds * 1000 }
                return total
            }
        }
    }
}
