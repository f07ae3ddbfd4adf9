import Foundation

/// A ``PhoneDayMatrixReport`` drawn as an SVG heat map: one panel per mode, a row per active day
/// and use of the phone, a column per data pace, each cell coloured by its p95 staleness (green
/// under 5 minutes, yellow at 30, red from 2 hours) and labelled with it.
///
/// ```swift
/// try Data(PhoneDayHeatMap().svg(matrix).utf8).write(to: URL(fileURLWithPath: "matrix.svg"))
/// ```
public struct PhoneDayHeatMap: Sendable {
    private let cellWidth = 64.0
    private let cellHeight = 24.0
    private let labelWidth = 190.0
    private let panelGap = 30.0
    private let top = 78.0

    /// A heat map drawer.
    public init() {}

    /// The report as a standalone SVG document.
    public func svg(_ matrix: PhoneDayMatrixReport) -> String {
        let modes = matrix.entries.first?.report.modes.map(\.mode) ?? []
        let paces = Array(Set(matrix.entries.map(\.cell.pace))).sorted()
        var rows: [String] = []
        for entry in matrix.entries {
            let row = rowLabel(entry.cell)
            if !rows.contains(row) { rows.append(row) }
        }
        let panelWidth = labelWidth + cellWidth * Double(paces.count)
        let width = panelWidth * Double(max(modes.count, 1)) + panelGap * Double(max(modes.count - 1, 0)) + 40
        let height = top + cellHeight * Double(rows.count) + 60
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"-apple-system, Helvetica, Arial, sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            text(20, 24, "Phone days: p95 staleness of the widget, per mode, data pace (columns) and day (rows)", size: 14, weight: "600"),
            text(20, 42, "green < 5 min · yellow 30 min · red ≥ 2 h; each cell is a 24-hour day against the real server", size: 11, weight: "400"),
        ]
        for (index, mode) in modes.enumerated() {
            let left = 20 + Double(index) * (panelWidth + panelGap)
            out.append(text(left, top - 22, mode, size: 13, weight: "600"))
            for (column, pace) in paces.enumerated() {
                out.append(text(left + labelWidth + cellWidth * Double(column) + 6, top - 6, "every \(pace) min", size: 10, weight: "400"))
            }
            for (rowIndex, row) in rows.enumerated() {
                let y = top + cellHeight * Double(rowIndex)
                out.append(text(left, y + 16, row, size: 10, weight: "400"))
                for (column, pace) in paces.enumerated() {
                    guard let entry = matrix.entries.first(where: { rowLabel($0.cell) == row && $0.cell.pace == pace }),
                          let figures = entry.report.modes.first(where: { $0.mode == mode })
                    else { continue }
                    let x = left + labelWidth + cellWidth * Double(column)
                    out.append("<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(cellWidth - 2))\" height=\"\(f(cellHeight - 2))\" fill=\"\(colour(figures.p95Staleness))\"/>")
                    out.append(text(x + 6, y + 15, PhoneDayReport.duration(figures.p95Staleness), size: 10, weight: "500"))
                }
            }
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    private func rowLabel(_ cell: PhoneDayMatrix.Cell) -> String {
        "\(cell.activeDay) · \(cell.situation.rawValue)"
    }

    /// Green at 0, yellow at 30 minutes, red from 2 hours, on a logarithmic scale between.
    private func colour(_ staleness: TimeInterval) -> String {
        let minutes = max(staleness / 60, 1)
        let position = min(max(log(minutes) / log(120), 0), 1)
        let (red, green): (Double, Double) = position < 0.71
            ? (90 + 165 * position / 0.71, 200)
            : (255, 200 * (1 - (position - 0.71) / 0.29))
        return String(format: "#%02x%02x%02x", Int(red), Int(max(green, 60)), 100)
    }

    private func text(_ x: Double, _ y: Double, _ content: String, size: Int, weight: String) -> String {
        SVGText.text(x, y, content, size: size, weight: weight, fill: "#1d1d1f")
    }

    private func f(_ value: Double) -> String { SVGText.number(value) }
}
