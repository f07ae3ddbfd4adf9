/// How a state is marked on a rendered widget: a short label and a colour of its own, so
/// every state can be told apart at a glance, in colour or not.
struct StateBadge: Sendable {
    let label: String
    /// A label of at most three ASCII characters, for narrow terminal boxes.
    let shortLabel: String
    /// A hex colour, `#RRGGBB`.
    let color: String

    init(_ state: WidgetState) {
        switch state {
        case .fresh: (label, shortLabel, color) = ("Fresh", "ok", "#1E8E3E")
        case .stale: (label, shortLabel, color) = ("Stale", "old", "#B26A00")
        case .unavailable: (label, shortLabel, color) = ("Unavailable", "n/a", "#5F6368")
        case .signedOut: (label, shortLabel, color) = ("Signed out", "out", "#1A73E8")
        case .reauthRequired: (label, shortLabel, color) = ("Open app", "!", "#C5221F")
        }
    }
}
