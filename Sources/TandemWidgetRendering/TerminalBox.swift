import TandemWidgetModel

/// Draws widget content as a box of box-drawing characters, a fixed number of columns wide
/// per family, for a terminal.
struct TerminalBox {
    let content: WidgetContent
    let family: WidgetFamily

    /// The box's width in columns, including its borders.
    static func width(of family: WidgetFamily) -> Int {
        switch family {
        case .systemSmall: 24
        case .systemMedium, .systemLarge: 44
        case .systemExtraLarge: 64
        case .accessoryCircular: 16
        case .accessoryRectangular: 26
        case .accessoryInline: 40
        }
    }

    func render() -> String {
        let inner = Self.width(of: family) - 4
        let marker = StateBadge(content.state)
        let badge = "[\(inner >= 30 ? marker.label : marker.shortLabel)]"
        var lines = ["╭" + String(repeating: "─", count: inner + 2) + "╮"]
        let title = TextFit.truncate(content.title, to: max(1, inner - badge.count - 1))
        lines.append(line(title + String(repeating: " ", count: max(1, inner - title.count - badge.count)) + badge, inner))
        let rows = content.rows.prefix(family.rowCapacity)
        if !rows.isEmpty {
            lines.append(rule(inner))
            for row in rows {
                let value = TextFit.truncate(row.value, to: max(1, inner / 2))
                let key = TextFit.truncate(row.key, to: max(1, inner - value.count - 1))
                lines.append(line(key + String(repeating: " ", count: max(1, inner - key.count - value.count)) + value, inner))
            }
        }
        lines.append(rule(inner))
        // With no rows, the footer is the message (what to do), so it may take three lines.
        for footer in TextFit.wrap(content.footer, width: inner, lines: rows.isEmpty ? 3 : 1) {
            lines.append(line(footer, inner))
        }
        lines.append("╰" + String(repeating: "─", count: inner + 2) + "╯")
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ text: String, _ inner: Int) -> String {
        let fitted = TextFit.truncate(text, to: inner)
        return "│ " + fitted + String(repeating: " ", count: max(0, inner - fitted.count)) + " │"
    }

    private func rule(_ inner: Int) -> String {
        "├" + String(repeating: "─", count: inner + 2) + "┤"
    }
}
