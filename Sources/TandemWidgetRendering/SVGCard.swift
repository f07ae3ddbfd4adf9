import TandemWidgetModel

/// Draws widget content as an SVG document at its family's point size.
struct SVGCard {
    let content: WidgetContent
    let family: WidgetFamily

    private static let font = "-apple-system, 'Helvetica Neue', Helvetica, Arial, sans-serif"
    static let ink = "#1C1C1E"
    private static let muted = "#6B6B70"

    var width: Double { family.displaySize.width }
    private var height: Double { family.displaySize.height }
    private var badge: StateBadge { StateBadge(content.state) }

    func render() -> String {
        let label = XMLText.escape("\(content.title) — \(badge.label)")
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        svg += "viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(label)\" "
        svg += "font-family=\"\(Self.font)\" data-state=\"\(XMLText.escape(content.state.name))\">\n"
        switch family {
        case .accessoryCircular: svg += circular()
        case .accessoryInline: svg += inline()
        default: svg += card()
        }
        return svg + "</svg>\n"
    }

    // MARK: - Card families

    private func card() -> String {
        let system = !family.isAccessory
        let pad: Double = system ? 14 : 7
        let radius: Double = system ? 22 : 12
        let titleSize: Double = system ? 15 : 12
        let rowSize: Double = system ? 13 : 11
        let rowHeight: Double = family == .systemLarge || family == .systemExtraLarge ? 26 : (system ? 20 : 15)
        let inner = width - 2 * pad
        var out = rect(x: 0.5, y: 0.5, width: width - 1, height: height - 1, radius: radius, fill: "#FFFFFF", stroke: "#D0D4DA")

        let badgeWidth = system ? Double(badge.label.count) * 6.2 + 14 : 8
        let titleBaseline = pad + titleSize
        let titleRoom = inner - badgeWidth - 6
        let title = TextFit.truncate(content.title, to: TextFit.characters(in: titleRoom, fontSize: titleSize, factor: 0.6))
        out += text(title, x: pad, y: titleBaseline, size: titleSize, weight: "600", fill: Self.ink)
        if system {
            out += rect(x: width - pad - badgeWidth, y: pad, width: badgeWidth, height: 18, radius: 9, fill: badge.color, stroke: nil)
            out += text(badge.label, x: width - pad - badgeWidth / 2, y: pad + 13, size: 10, weight: "600", fill: "#FFFFFF", anchor: "middle")
        } else {
            out += "<circle cx=\"\(n(width - pad - 4))\" cy=\"\(n(pad + titleSize / 2))\" r=\"4\" fill=\"\(badge.color)\"/>\n"
        }

        var baseline = titleBaseline + (system ? rowHeight + 6 : rowHeight)
        for row in content.rows.prefix(family.rowCapacity) {
            out += self.row(row, baseline: baseline, pad: pad, size: rowSize, height: rowHeight)
            baseline += rowHeight
        }

        // With no rows to show, the footer says what to do, so it takes the body's place and wraps
        // onto as many lines as the card has room for.
        if content.rows.isEmpty {
            let lineHeight = rowSize * 1.3
            let room = max(1, min(4, Int((height - pad - baseline) / lineHeight) + 1))
            let lines = TextFit.wrap(content.footer, width: TextFit.characters(in: inner, fontSize: rowSize), lines: room)
            for (index, line) in lines.enumerated() {
                out += text(line, x: pad, y: baseline + Double(index) * lineHeight, size: rowSize, weight: nil, fill: Self.ink)
            }
        } else {
            let footerSize: Double = system ? 11 : 9
            let footer = TextFit.truncate(content.footer, to: TextFit.characters(in: inner, fontSize: footerSize))
            out += text(footer, x: pad, y: height - pad + (system ? 2 : 1), size: footerSize, weight: nil, fill: Self.muted)
        }
        return out
    }

    // MARK: - Accessory families

    private func circular() -> String {
        let center = width / 2
        var out = "<circle cx=\"\(n(center))\" cy=\"\(n(center))\" r=\"\(n(center - 2))\" fill=\"#FFFFFF\" stroke=\"\(badge.color)\" stroke-width=\"3\"/>\n"
        if let row = content.rows.first {
            out += text(TextFit.truncate(row.value, to: 5), x: center, y: center + 5, size: 16, weight: "700", fill: Self.ink, anchor: "middle")
            out += text(TextFit.truncate(row.key, to: 9), x: center, y: center + 20, size: 8, weight: nil, fill: Self.muted, anchor: "middle")
        } else {
            out += text(TextFit.truncate(badge.label, to: 9), x: center, y: center + 4, size: 10, weight: "600", fill: badge.color, anchor: "middle")
        }
        return out
    }

    private func inline() -> String {
        var out = rect(x: 0.5, y: 0.5, width: width - 1, height: height - 1, radius: 13, fill: "#FFFFFF", stroke: "#D0D4DA")
        out += "<circle cx=\"12\" cy=\"\(n(height / 2))\" r=\"4\" fill=\"\(badge.color)\"/>\n"
        let detail = content.rows.first.map { "\($0.key) \($0.value)" } ?? content.footer
        let room = TextFit.characters(in: width - 30, fontSize: 12)
        var full = "\(content.title): \(detail)"
        // The first row's action state follows only when the whole line still fits.
        if let first = content.rows.first,
            let mark = RowActions(row: first, family: family).stateText(fitting: { full.count + 3 + $0.count <= room })
        {
            full += " · " + mark
        }
        let line = TextFit.truncate(full, to: room)
        out += text(line, x: 22, y: height / 2 + 4, size: 12, weight: nil, fill: Self.ink)
        return out
    }

    // MARK: - Elements

    func rect(x: Double, y: Double, width: Double, height: Double, radius: Double, fill: String, stroke: String?) -> String {
        let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
        return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" rx=\"\(n(radius))\" fill=\"\(fill)\"\(outline)/>\n"
    }

    func text(_ string: String, x: Double, y: Double, size: Double, weight: String?, fill: String, anchor: String? = nil) -> String {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        return "<text \(attributes)>\(XMLText.escape(string))</text>\n"
    }

    /// A coordinate with at most one decimal, so output is stable across platforms.
    func n(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
