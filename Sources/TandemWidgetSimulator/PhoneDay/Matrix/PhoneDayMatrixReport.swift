import Foundation

/// The reports of a ``PhoneDayMatrix``: one table of every cell and mode, the rules a pushed
/// widget must keep in every cell (``violations(pushed:polled:)``), and a heat map of p95
/// staleness per mode (``heatMap()``).
public struct PhoneDayMatrixReport: Codable, Hashable, Sendable {
    /// One cell's day.
    public struct Entry: Codable, Hashable, Sendable {
        /// The cell.
        public var cell: PhoneDayMatrix.Cell
        /// Its day's report.
        public var report: PhoneDayReport

        /// A cell's report.
        public init(cell: PhoneDayMatrix.Cell, report: PhoneDayReport) {
            self.cell = cell
            self.report = report
        }

        /// When the phone was first unlocked after its restart, if it restarted.
        public var unlockedFrom: Date? {
            report.settings.firstUnlock.map { report.settings.start.addingTimeInterval($0) }
        }
    }

    /// The cells' reports, in the matrix's order.
    public var entries: [Entry]

    /// The reports of `entries`.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// One line per cell and mode: staleness, the busiest widget's reloads, pushes applied and
    /// dropped, and after a restart the p95 from the first unlock and the reloads left then.
    ///
    /// ```
    /// data       active  phone            mode      p50     p95     max     reloads  pushes applied  dropped  left at unlock
    /// every 5    06–22   never opened     pushed    9 min   21 min  45 min       44              40        0               –
    /// ```
    public var table: String {
        let header = [
            "data", "active", "phone", "mode", "p50", "p95", "max", "reloads", "declined", "pushes applied", "dropped", "p95 from unlock",
            "left at unlock",
        ]
        var rows: [[String]] = []
        for entry in entries {
            for mode in entry.report.modes {
                rows.append([
                    "every \(entry.cell.pace)", entry.cell.activeDay, entry.cell.situation.rawValue, mode.mode,
                    PhoneDayReport.duration(mode.p50Staleness), PhoneDayReport.duration(mode.p95Staleness),
                    PhoneDayReport.duration(mode.maximumStaleness), "\(mode.reloadsUsed)", "\(mode.declinedReloads)",
                    "\(mode.pushes(.applied))", "\(mode.pushes(.overBudget))",
                    entry.unlockedFrom.map { PhoneDayReport.duration(mode.percentile(95, from: $0)) } ?? "–",
                    mode.reloadsLeftAtFirstUnlock.map { "\($0)" } ?? "–",
                ])
            }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 4 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// The rules a pushed widget keeps in every cell, broken ones first named by cell:
    /// - its p95 staleness is no worse than the polled widget's;
    /// - the phone drops none of its pushes for budget (the server sends no more than it models);
    /// - no widget's counted reloads exceed the day's budget;
    /// - where the data changes every 30 minutes or slower, its p95 staleness is under 5 minutes;
    /// - where it changes every 5 minutes or faster, under 30 minutes.
    ///
    /// After a restart nothing can be read before the first unlock, in any mode: the two goals
    /// in minutes are held from the first unlock on (``Entry/unlockedFrom``); the comparison with
    /// the polled widget takes the whole day.
    ///
    /// - Returns: One line per broken rule; empty when every cell keeps them.
    public func violations(pushed: String = "pushed", polled: String = "direct") -> [String] {
        var broken: [String] = []
        for entry in entries {
            let modes = Dictionary(entry.report.modes.map { ($0.mode, $0) }, uniquingKeysWith: { first, _ in first })
            let budget = entry.report.settings.dailyReloadBudget
            func fail(_ rule: String) { broken.append("\(entry.cell.label): \(rule)") }
            for mode in entry.report.modes where mode.reloadsUsed > budget {
                fail("\(mode.mode) used \(mode.reloadsUsed) reloads, over the budget of \(budget)")
            }
            guard let pushedMode = modes[pushed] else { continue }
            let p95 = pushedMode.p95Staleness
            let unlockedP95 = pushedMode.percentile(95, from: entry.unlockedFrom)
            if let polledMode = modes[polled], p95 > polledMode.p95Staleness {
                fail("\(pushed) p95 \(PhoneDayReport.duration(p95)) is staler than \(polled)'s \(PhoneDayReport.duration(polledMode.p95Staleness))")
            }
            let dropped = pushedMode.pushes(.overBudget)
            if dropped > 0 { fail("the phone dropped \(dropped) of \(pushed)'s pushes over budget") }
            if entry.cell.pace >= 30, unlockedP95 >= 5 * 60 {
                fail("\(pushed) p95 \(PhoneDayReport.duration(unlockedP95)), not under 5 min, with data every \(entry.cell.pace) min")
            }
            if entry.cell.pace <= 5, unlockedP95 >= 30 * 60 {
                fail("\(pushed) p95 \(PhoneDayReport.duration(unlockedP95)), not under 30 min, with data every \(entry.cell.pace) min")
            }
        }
        return broken
    }
}
