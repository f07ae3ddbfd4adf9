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
                lines += self.row(row, inner)
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

    /// A row's lines: its key and value, then `[Approve] [Reject]` where ``RowActions`` shows
    /// buttons, and its action state at the end (in the buttons' place, or on a line of its own
    /// below them, where a sentence has room). A row without actions is one line, as before.
    private func row(_ row: WidgetRow, _ inner: Int) -> [String] {
        let actions = RowActions(row: row, family: family)
        var trailing = actions.buttons.map { "[\($0.title)]" }.joined(separator: " ")
        var below: [String] = []
        if trailing.isEmpty {
            let value = TextFit.truncate(row.value, to: max(1, inner / 2))
            let spare = inner - row.key.count - value.count - 2
            trailing = actions.stateText(fitting: { $0.count <= spare }) ?? ""
        } else if let badge = actions.badge {
            below.append(line("  ↳ " + badge.label, inner))
        }
        let room = trailing.isEmpty ? inner : inner - trailing.count - 1
        // Beside buttons, an amount keeps what a short key leaves it rather than half the room.
        let valueRoom = trailing.isEmpty ? room / 2 : max(room / 2, room - row.key.count - 1)
        let value = TextFit.truncate(row.value, to: max(1, valueRoom))
        let key = TextFit.truncate(row.key, to: max(1, room - value.count - 1))
        let end = trailing.isEmpty ? "" : " " + trailing
        return [line(key + String(repeating: " ", count: max(1, room - key.count - value.count)) + value + end, inner)] + below
    }

    private func line(_ text: String, _ inner: Int) -> String {
        let fitted = TextFit.truncate(text, to: inner)
        return "│ " + fitted + String(repeating: " ", count: max(0, inner - fitted.count)) + " │"
    }

    private func rule(_ inner: Int) -> String {
        "├" + String(repeating: "─", count: inner + 2) + "┤"
    }
}
