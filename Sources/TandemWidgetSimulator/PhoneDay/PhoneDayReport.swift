import Foundation

/// The outcome of a ``PhoneDay``: the settings it ran with, when the server's data changed, and
/// each mode's figures; ``table`` prints them, ``PhoneDayChart`` draws them.
public struct PhoneDayReport: Codable, Hashable, Sendable {
    /// The day's settings.
    public var settings: PhoneDaySettings
    /// When the server's data changed.
    public var dataChanges: [Date]
    /// Each mode, in the order given.
    public var modes: [PhoneDayModeReport]

    /// A report of `modes` over a day of `settings` whose data changed at `dataChanges`.
    public init(settings: PhoneDaySettings, dataChanges: [Date], modes: [PhoneDayModeReport]) {
        self.settings = settings
        self.dataChanges = dataChanges
        self.modes = modes
    }

    /// The figures as a table, one line per mode; the pushes that reached its device, those the
    /// phone applied and those it dropped over their budget; after a restart, the reloads left
    /// at the first unlock:
    ///
    /// ```
    /// mode      p50 stale  p95 stale  max stale  reloads  declined  background runs  pushes  applied  over budget
    /// brokered      0 min     1 h 25     1 h 56       28         0               14       0        0            0
    /// ```
    public var table: String {
        let restarted = settings.firstUnlock != nil
        let header = [
            "mode", "p50 stale", "p95 stale", "max stale", "reloads", "declined", "background runs", "pushes", "applied", "over budget",
        ] + (restarted ? ["left at unlock"] : [])
        let rows = modes.map { mode in
            [
                mode.mode, Self.duration(mode.p50Staleness), Self.duration(mode.p95Staleness), Self.duration(mode.maximumStaleness),
                "\(mode.reloadsUsed)", "\(mode.declinedReloads)", "\(mode.backgroundRuns.count)",
                "\(mode.pushes.count)", "\(mode.pushes(.applied))", "\(mode.pushes(.overBudget))",
            ] + (restarted ? [mode.reloadsLeftAtFirstUnlock.map { "\($0)" } ?? "–"] : [])
        }
        let figures = Self.aligned(header, rows)
        return settings.taps.isEmpty ? figures : figures + "\n\n" + tapsTable
    }

    /// The user's taps on Approve per mode: how many the system ran in the app's process, how
    /// many were executed at once (before the intent returned) or later (by the host's next run,
    /// with the longest wait), how many still wait at the end of the day (the widget says "Sent
    /// when the app next runs") and how many expired (it says "Expired — tap again").
    ///
    /// ```
    /// taps    tapped  in the app  at once  later  longest wait  waiting  expired
    /// direct      12          12       12      0             –        0        0
    /// ```
    public var tapsTable: String {
        let header = ["taps", "tapped", "in the app", "at once", "later", "longest wait", "waiting", "expired"]
        let rows = modes.map { mode in
            let later = mode.taps.filter { ($0.secondsToExecution ?? 0) > 0 }
            let waiting = mode.taps.filter { $0.executedAt == nil && !$0.expired(by: settings.end) }
            return [
                mode.mode, "\(mode.taps.count)", "\(mode.taps.filter { $0.process == .app }.count)", "\(mode.tapsExecuted(within: 0))",
                "\(later.count)", later.compactMap(\.secondsToExecution).max().map(Self.duration) ?? "–", "\(waiting.count)",
                "\(mode.tapsExpired(by: settings.end))",
            ]
        }
        return Self.aligned(header, rows)
    }

    /// `header` and `rows` as columns: the first left-aligned, the others right-aligned.
    private static func aligned(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// "0 min", "18 min", "1 h 27", "13 h 05".
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        guard minutes >= 60 else { return "\(minutes) min" }
        let rest = minutes % 60
        return "\(minutes / 60) h " + (rest < 10 ? "0\(rest)" : "\(rest)")
    }
}
