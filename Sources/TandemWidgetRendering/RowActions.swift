import TandemWidgetModel

/// What a row shows at its end for its item's actions, decided once for every renderer: its
/// buttons where the family shows buttons, and where its last action stands.
///
/// A row without an item and without a state shows nothing here, so it draws as before actions
/// existed. The state's texts come longest first (`"Changed — check again"`, `"conflict"`,
/// `"≠"`); a renderer draws the first that fits, and in a family without buttons draws the
/// state only if it fits, since there it only informs.
struct RowActions {
    /// The buttons, in the item's order. Empty in a family that shows no buttons.
    let buttons: [Button]
    /// How the row's last action is marked, if it has one.
    let badge: Badge?
    /// Whether the row may make room for the state by shortening its value: only where the
    /// family shows buttons; elsewhere the state shows only in room left over.
    let stateIsRequired: Bool

    /// The marks of `row` in `family`.
    init(row: WidgetRow, family: WidgetFamily) {
        let opensApp = row.action?.needsApp == true
        buttons = family.showsActions ? row.visibleActions.map { Button(action: $0.rawValue, isFilled: $0 == .approve, opensApp: opensApp) } : []
        badge = row.actionState.map(Badge.init)
        stateIsRequired = family.showsActions
    }

    /// Whether the row shows nothing for actions and draws as a plain key and value.
    var isEmpty: Bool { buttons.isEmpty && badge == nil }

    /// The state's texts a renderer may draw, longest first: the full label where the family
    /// shows buttons (there is room for it), then the short name, then a single symbol.
    var stateTexts: [String] {
        guard let badge else { return [] }
        return stateIsRequired ? [badge.label, badge.name, badge.symbol] : [badge.name, badge.symbol]
    }

    /// The state as the row draws it: the longest of ``stateTexts`` that `fits` in the room
    /// the row has left; where the state is required and nothing fits, its symbol anyway (the
    /// value shortens for it); otherwise `nil`, and the row shows no state.
    func stateText(fitting fits: (String) -> Bool) -> String? {
        let texts = stateTexts
        return texts.first(where: fits) ?? (stateIsRequired ? texts.last : nil)
    }

    /// One action's button: approving is drawn filled in green, rejecting outlined in red.
    struct Button {
        /// The action's raw value (`approve`).
        let action: String
        /// What the button says ("Approve").
        let title: String
        /// Whether it is the filled button (approve); the others are outlined.
        let isFilled: Bool
        /// Its colour, `#RRGGBB`: the fill of a filled button, the outline and text of the others.
        let color: String
        /// Whether a tap opens the app to confirm (the amount is above the step-up threshold),
        /// which the button's accessible text says.
        let opensApp: Bool

        /// The button of the action whose raw value is `action`, filled or outlined, acting in
        /// the background or opening the app.
        init(action: String, isFilled: Bool, opensApp: Bool) {
            self.action = action
            self.isFilled = isFilled
            self.opensApp = opensApp
            title = action.prefix(1).uppercased() + action.dropFirst()
            color = isFilled ? StateBadge(.fresh).color : StateBadge(.reauthRequired(reason: "")).color
        }
    }

    /// How a row's action state is marked: the texts it may be drawn as and a colour, taken
    /// from ``StateBadge`` so that the same meaning has the same colour on every widget
    /// (pending and waiting neutral, done green, conflict amber, needs app blue, refused and expired red).
    struct Badge {
        /// The state's label ("Approving…"); a done state's starts with "✓".
        let label: String
        /// Its short name ("pending"); a done state's starts with "✓".
        let name: String
        /// One character for the narrowest rows.
        let symbol: String
        /// A hex colour, `#RRGGBB`.
        let color: String

        /// The badge of `state`.
        init(_ state: WidgetActionState) {
            switch state {
            case .pending: (symbol, color) = ("○", StateBadge(.unavailable).color)
            case .waiting: (symbol, color) = ("◷", StateBadge(.unavailable).color)
            case .done: (symbol, color) = ("✓", StateBadge(.fresh).color)
            case .conflict: (symbol, color) = ("≠", StateBadge(.stale(age: 0)).color)
            case .needsApp: (symbol, color) = ("↗", StateBadge(.signedOut).color)
            case .refused: (symbol, color) = ("✕", StateBadge(.reauthRequired(reason: "")).color)
            case .expired: (symbol, color) = ("⊘", StateBadge(.reauthRequired(reason: "")).color)
            }
            if case .done = state {
                (label, name) = ("✓ " + state.label, "✓ " + state.name)
            } else {
                (label, name) = (state.label, state.name)
            }
        }
    }
}
