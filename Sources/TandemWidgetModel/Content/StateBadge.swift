/// How a state is marked on a widget, by every renderer (SVG, terminal, SwiftUI): a short label
/// and a colour of its own, so every state can be told apart at a glance, in colour or not.
public struct StateBadge: Sendable {
    /// The state's name as the badge shows it.
    public let label: String
    /// A label of at most three ASCII characters, for narrow terminal boxes.
    public let shortLabel: String
    /// A hex colour, `#RRGGBB`.
    public let color: String

    /// The badge of `state`.
    public init(_ state: WidgetState) {
        switch state {
        case .fresh: (label, shortLabel, color) = ("Fresh", "ok", "#1E8E3E")
        case .stale: (label, shortLabel, color) = ("Stale", "old", "#B26A00")
        case .unavailable: (label, shortLabel, color) = ("Unavailable", "n/a", "#5F6368")
        case .signedOut: (label, shortLabel, color) = ("Signed out", "out", "#1A73E8")
        case .reauthRequired: (label, shortLabel, color) = ("Open app", "!", "#C5221F")
        }
    }
}
