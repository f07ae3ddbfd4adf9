import Foundation

/// A ``PhoneDayReport`` drawn as an SVG picture: one timeline per mode over the day, with the
/// widget's staleness as a line (on one scale for every mode), the server's data changes above
/// it, and below it the widget's reloads (counted and free), the host's background runs, the
/// pushes that reached the device (applied or dropped) and the app's opens. The title and each
/// lane name the modes.
///
/// ```swift
/// try Data(PhoneDayChart().svg(report).utf8).write(to: URL(fileURLWithPath: "day.svg"))
/// ```
public struct PhoneDayChart: Sendable {
    /// The picture's width in pixels.
    public var width = 960.0

    private let left = 70.0
    private let right = 20.0
    private let laneHeight = 206.0
    private let plotHeight = 110.0
    private let top = 72.0

    /// A chart drawer.
    public init() {}

    /// The report as a standalone SVG document.
    public func svg(_ report: PhoneDayReport) -> String {
        let height = top + laneHeight * Double(report.modes.count) + 30
        let cap = scale(report)
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"-apple-system, Helvetica, Arial, sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            text(
                left, 20, "Phone day (\(report.modes.map(\.mode).joined(separator: ", ")); \(report.settings.refreshPolicy.rawValue) scheduler): "
                    + "staleness, reloads, runs, pushes, app opens", size: 14, weight: "600"),
            legend(y: 38),
        ]
        for (index, mode) in report.modes.enumerated() {
            out.append(lane(mode, report: report, top: top + laneHeight * Double(index), cap: cap))
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: - Parts

    private func lane(_ mode: PhoneDayModeReport, report: PhoneDayReport, top: Double, cap: TimeInterval) -> String {
        let settings = report.settings
        let plotTop = top + 22
        let plotBottom = plotTop + plotHeight
        let plotWidth = width - left - right
        func x(_ date: Date) -> Double { left + plotWidth * min(max(date.timeIntervalSince(settings.start) / settings.duration, 0), 1) }
        func y(_ staleness: TimeInterval) -> Double { plotBottom - plotHeight * min(staleness, cap) / cap }
        var out: [String] = []
        let summary = "p50 \(PhoneDayReport.duration(mode.p50Staleness)) · p95 \(PhoneDayReport.duration(mode.p95Staleness)) · "
            + "\(mode.reloadsUsed) reloads · \(mode.backgroundRuns.count) background runs"
            + (mode.pushes.isEmpty ? "" : " · \(mode.pushes.count) pushes, \(mode.pushes(.applied)) applied, \(mode.pushes(.overBudget)) over budget")
        out.append(text(left, top + 14, "\(mode.mode) — \(summary)", size: 12, weight: "600"))
        out.append("<rect x=\"\(f(left))\" y=\"\(f(plotTop))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"#f7f7f9\" stroke=\"#d0d0d8\"/>")
        for open in mode.appOpens {
            let start = x(open)
            let end = max(x(open.addingTimeInterval(settings.foregroundDuration)), start + 2)
            out.append("<rect x=\"\(f(start))\" y=\"\(f(plotTop))\" width=\"\(f(end - start))\" height=\"\(f(plotHeight + 52))\" fill=\"#f5b700\" fill-opacity=\"0.35\"/>")
        }
        for hour in stride(from: 0.0, through: settings.duration / 3_600, by: 3) {
            let position = left + plotWidth * hour * 3_600 / settings.duration
            out.append("<line x1=\"\(f(position))\" y1=\"\(f(plotTop))\" x2=\"\(f(position))\" y2=\"\(f(plotBottom))\" stroke=\"#e2e2ea\"/>")
            out.append(text(position, plotBottom + 64, hourLabel(Int(hour)), anchor: "middle", fill: "#666"))
        }
        for (value, label) in [(0.0, "0"), (cap / 2, PhoneDayReport.duration(cap / 2)), (cap, PhoneDayReport.duration(cap))] {
            out.append(text(left - 6, y(value) + 4, label, anchor: "end", fill: "#666"))
        }
        for change in report.dataChanges {
            out.append("<line x1=\"\(f(x(change)))\" y1=\"\(f(plotTop - 5))\" x2=\"\(f(x(change)))\" y2=\"\(f(plotTop))\" stroke=\"#888\"/>")
        }
        if let first = mode.samples.first {
            var path = "M\(f(x(first.date))),\(f(y(first.staleness)))"
            for sample in mode.samples.dropFirst() { path += " L\(f(x(sample.date))),\(f(y(sample.staleness)))" }
            out.append("<path d=\"\(path)\" fill=\"none\" stroke=\"#d1495b\" stroke-width=\"1.5\"/>")
        }
        let reloadRow = plotBottom + 12
        for reload in mode.reloads {
            let color = reload.counted ? "#2e6fdb" : "#9db8e8"
            out.append("<line x1=\"\(f(x(reload.date)))\" y1=\"\(f(reloadRow - 6))\" x2=\"\(f(x(reload.date)))\" y2=\"\(f(reloadRow + 6))\" stroke=\"\(color)\" stroke-width=\"1.5\"/>")
        }
        out.append(text(left - 6, reloadRow + 4, "reloads", anchor: "end", fill: "#2e6fdb"))
        let runRow = plotBottom + 28
        for run in mode.backgroundRuns {
            out.append("<circle cx=\"\(f(x(run.date)))\" cy=\"\(f(runRow))\" r=\"4\" fill=\"\(run.succeeded ? "#2a9d5b" : "#c0392b")\"/>")
        }
        out.append(text(left - 6, runRow + 4, "runs", anchor: "end", fill: "#2a9d5b"))
        let pushRow = plotBottom + 44
        for push in mode.pushes {
            out.append(marker(push, x: x(push.date), y: pushRow))
        }
        out.append(text(left - 6, pushRow + 4, "pushes", anchor: "end", fill: "#7b4fc9"))
        return out.joined(separator: "\n")
    }

    /// A push: a triangle for a WidgetKit push, a diamond for a background push; filled when
    /// applied, hollow grey when dropped or not delivered.
    private func marker(_ push: PhoneDayModeReport.Push, x: Double, y: Double) -> String {
        let color = push.kind == .widgets ? "#7b4fc9" : "#138a8a"
        let paint = push.outcome == .applied ? "fill=\"\(color)\"" : "fill=\"none\" stroke=\"#999\""
        switch push.kind {
        case .widgets:
            return "<path d=\"M\(f(x)),\(f(y - 5)) L\(f(x + 4)),\(f(y + 3)) L\(f(x - 4)),\(f(y + 3)) Z\" \(paint)/>"
        case .background:
            return "<path d=\"M\(f(x)),\(f(y - 4)) L\(f(x + 4)),\(f(y)) L\(f(x)),\(f(y + 4)) L\(f(x - 4)),\(f(y)) Z\" \(paint)/>"
        }
    }

    private func legend(y: Double) -> String {
        let rows: [[(String, String)]] = [
            [
                ("#d1495b", "staleness"), ("#2e6fdb", "counted reload"), ("#9db8e8", "free reload (app open)"),
                ("#2a9d5b", "background run"), ("#f5b700", "app open"), ("#888", "data change"),
            ],
            [("#7b4fc9", "WidgetKit push (applied)"), ("#138a8a", "background push (applied)"), ("#999", "push dropped or not delivered")],
        ]
        var out: [String] = []
        for (index, items) in rows.enumerated() {
            var x = left
            let rowY = y + 16 * Double(index)
            for (color, label) in items {
                out.append("<rect x=\"\(f(x))\" y=\"\(f(rowY - 9))\" width=\"10\" height=\"10\" fill=\"\(color)\"/>")
                out.append(text(x + 14, rowY, label))
                x += 24 + Double(label.count) * 6.2
            }
        }
        return out.joined(separator: "\n")
    }

    /// Whole hours, at least two, covering every mode's largest staleness.
    private func scale(_ report: PhoneDayReport) -> TimeInterval {
        let largest = report.modes.map(\.maximumStaleness).max() ?? 0
        return max(2, (largest / 3_600).rounded(.up)) * 3_600
    }

    private func hourLabel(_ hour: Int) -> String {
        let wrapped = hour % 24
        return (wrapped < 10 ? "0\(wrapped)" : "\(wrapped)") + ":00"
    }

    private func text(_ x: Double, _ y: Double, _ content: String, size: Int = 11, weight: String = "400", anchor: String = "start", fill: String = "#222") -> String {
        SVGText.text(x, y, content, size: size, weight: weight, anchor: anchor, fill: fill)
    }

    private func escape(_ text: String) -> String {
        SVGText.escape(text)
    }

    private func f(_ value: Double) -> String {
        SVGText.number(value)
    }
}
