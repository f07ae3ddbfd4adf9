import TandemWidgetModel

extension SVGCard {
    /// One business row of a card: its key on the left, its value on the right, and at the
    /// card's edge what ``RowActions`` says the row shows: its buttons, and its action state as a
    /// small pill before them (in their place when there are none). The value moves left for them
    /// and is shortened first; a row without actions draws exactly as before actions existed.
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - baseline: The y of the row's text baseline.
    ///   - pad: The card's inner margin.
    ///   - size: The font size of the key and value.
    ///   - height: The row's height, which the buttons stay inside.
    func row(_ row: WidgetRow, baseline: Double, pad: Double, size: Double, height: Double) -> String {
        let inner = width - 2 * pad
        let actions = RowActions(row: row, family: family)
        let controls = Controls(system: !family.isAccessory, rowHeight: height, middle: baseline - size * 0.35)
        var room = inner
        var trailing: [String] = []

        for button in actions.buttons.reversed() {
            let title = TextFit.truncate(button.title, to: controls.characters(in: inner * 0.2 - controls.buttonPadding))
            let buttonWidth = controls.width(of: title, padding: controls.buttonPadding)
            trailing.insert(self.button(button, title: title, key: row.key, x: pad + room - buttonWidth, controls: controls), at: 0)
            room -= buttonWidth + 4
        }
        if !actions.buttons.isEmpty { room -= 4 }

        if let state = row.actionState, let badge = actions.badge {
            // The state takes the room the key and value leave as a plain row draws them (where
            // it is required and that is too little, the value shortens for its symbol).
            let value = TextFit.truncate(row.value, to: TextFit.characters(in: room * 0.45, fontSize: size))
            let spare = room - Self.textWidth(row.key, size: size) - Self.textWidth(value, size: size) - 8 - 6
            if let text = actions.stateText(fitting: { controls.width(of: $0, padding: controls.pillPadding) <= spare }) {
                let pillWidth = controls.width(of: text, padding: controls.pillPadding)
                trailing.insert(pill(text, state: state, badge: badge, key: row.key, x: pad + room - pillWidth, controls: controls), at: 0)
                room -= pillWidth + 6
            }
        }

        let right = width - pad - (inner - room)
        // Beside buttons or a state, an amount keeps what a short key leaves it, not only 45 %.
        let valueRoom = actions.isEmpty ? room * 0.45 : max(room * 0.45, room - Self.textWidth(row.key, size: size) - 8)
        let value = TextFit.truncate(row.value, to: TextFit.characters(in: valueRoom, fontSize: size))
        let keyRoom = room - Self.textWidth(value, size: size) - 8
        let key = TextFit.truncate(row.key, to: TextFit.characters(in: keyRoom, fontSize: size))
        var out = text(key, x: pad, y: baseline, size: size, weight: nil, fill: Self.ink)
        out += text(value, x: right, y: baseline, size: size, weight: "600", fill: Self.ink, anchor: "end")
        return out + trailing.joined()
    }

    /// An action's button with its left edge at `x`: filled for approving, outlined otherwise;
    /// a screen reader reads its action and the row's key ("Approve PR-1003", "Approve PR-1003
    /// in the app" above the step-up threshold).
    private func button(_ button: RowActions.Button, title: String, key: String, x: Double, controls: Controls) -> String {
        let buttonWidth = controls.width(of: title, padding: controls.buttonPadding)
        let label = XMLText.escape("\(button.title) \(key)\(button.opensApp ? " in the app" : "")")
        var out = "<g role=\"button\" aria-label=\"\(label)\" data-action=\"\(XMLText.escape(button.action))\">\n"
        out += rect(
            x: x, y: controls.top, width: buttonWidth, height: controls.height, radius: controls.height / 2,
            fill: button.isFilled ? button.color : "#FFFFFF", stroke: button.isFilled ? nil : button.color)
        out += text(
            title, x: x + buttonWidth / 2, y: controls.textBaseline, size: controls.fontSize, weight: "600",
            fill: button.isFilled ? "#FFFFFF" : button.color, anchor: "middle")
        return out + "</g>\n"
    }

    /// A state pill showing `text` with its left edge at `x`, tinted in the state's colour; a
    /// screen reader reads the row's key and the state's whole label ("PR-1003: Changed — check
    /// again") whichever text the pill shows.
    private func pill(_ text: String, state: WidgetActionState, badge: RowActions.Badge, key: String, x: Double, controls: Controls) -> String {
        let pillWidth = controls.width(of: text, padding: controls.pillPadding)
        let label = XMLText.escape("\(key): \(state.label)")
        var out = "<g role=\"status\" aria-label=\"\(label)\" data-action-state=\"\(XMLText.escape(state.name))\">\n"
        out += "<rect x=\"\(n(x))\" y=\"\(n(controls.top))\" width=\"\(n(pillWidth))\" height=\"\(n(controls.height))\" "
        out += "rx=\"\(n(controls.height / 2))\" fill=\"\(badge.color)\" fill-opacity=\"0.14\"/>\n"
        out += self.text(text, x: x + pillWidth / 2, y: controls.textBaseline, size: controls.fontSize, weight: "600", fill: badge.color, anchor: "middle")
        return out + "</g>\n"
    }

    /// The estimated width of `text` in the row's font (see ``TextFit/characters(in:fontSize:factor:)``).
    private static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.56
    }

    /// The size and place of a row's buttons and state pill: smaller text than the row's, centred
    /// on the row's text and kept inside the row's height.
    private struct Controls {
        let fontSize: Double
        let height: Double
        let top: Double
        let textBaseline: Double
        let buttonPadding: Double = 14
        let pillPadding: Double = 12

        init(system: Bool, rowHeight: Double, middle: Double) {
            fontSize = system ? 10 : 8
            height = system ? min(rowHeight - 4, 18) : rowHeight - 3
            top = middle - height / 2
            textBaseline = middle + fontSize * 0.35
        }

        /// The width of a control showing `text`, with `padding` points around it.
        func width(of text: String, padding: Double) -> Double {
            Double(text.count) * fontSize * 0.6 + padding
        }

        /// How many characters of the controls' font fit in `width` points.
        func characters(in width: Double) -> Int {
            TextFit.characters(in: width, fontSize: fontSize, factor: 0.6)
        }
    }
}
