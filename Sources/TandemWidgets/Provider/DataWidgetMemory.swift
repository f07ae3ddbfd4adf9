#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemAuth
import TandemPlatform
import TandemWidgetModel

/// What a ``DataWidgetProvider`` keeps in memory between timelines: the last rows it showed
/// for each configuration (so a locked device keeps showing them, never a blank card) and the
/// direct-mode session. (How many requests in a row the host left unanswered is in the sealed
/// request itself, ``DataRequest/attempt``: iOS discards this process between reloads.)
///
/// Nothing here is written anywhere: rows stay in the widget's process.
final class DataWidgetMemory: Sendable {
    /// Rows and when they were fetched (for the server's last rows of a backend that is down,
    /// when the server read them).
    struct Shown: Sendable, Equatable {
        var rows: [WidgetRow]
        var fetchedAt: Date
        /// The server marked the page stale: its backend is down.
        var isStale = false
    }

    private struct State {
        var shown: [DataWidgetConfiguration: Shown] = [:]
        var announced: [DataWidgetConfiguration: [WidgetRow]] = [:]
        var session: (share: AuxiliaryShare, session: ExtensionSession)?
    }

    private let state = Locked(State())

    /// The last rows shown for `configuration`.
    func shown(_ configuration: DataWidgetConfiguration) -> Shown? {
        state.withLock { $0.shown[configuration] }
    }

    /// Keeps `shown` for `configuration` unless newer rows are kept.
    func remember(_ shown: Shown, for configuration: DataWidgetConfiguration) {
        state.withLock { state in
            if state.shown[configuration].map({ $0.fetchedAt <= shown.fetchedAt }) ?? true { state.shown[configuration] = shown }
        }
    }

    /// Records `rows` as the fresh rows the latest timeline of `configuration` brings, and says
    /// whether they are new: different from those of its previous fresh timeline, or the first
    /// this process made (iOS discards the process between reloads, so after a discard rows
    /// count as new).
    func announce(_ rows: [WidgetRow], for configuration: DataWidgetConfiguration) -> Bool {
        state.withLock { state in
            defer { state.announced[configuration] = rows }
            return state.announced[configuration] != rows
        }
    }

    /// Forgets the rows of `configuration`: its data was refused to the user.
    func forget(_ configuration: DataWidgetConfiguration) {
        state.withLock { state in
            state.shown[configuration] = nil
            state.announced[configuration] = nil
        }
    }

    /// Forgets every row and request: at sign-out, no widget keeps the previous user's data.
    func forgetAll() {
        state.withLock { state in
            state.shown = [:]
            state.announced = [:]
        }
    }

    /// The direct-mode session for `share`, made once per share so its single-flight refresh
    /// state is shared by every timeline of this process.
    func session(for share: AuxiliaryShare, make: () -> ExtensionSession) -> ExtensionSession {
        state.withLock { state in
            if let current = state.session, current.share == share { return current.session }
            let session = make()
            state.session = (share, session)
            return session
        }
    }
}
