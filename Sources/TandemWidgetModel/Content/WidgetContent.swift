#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a business widget shows, independent of any UI toolkit.
///
/// SwiftUI draws it on Apple; `WidgetRenderer` draws it as SVG or in a terminal.
///
/// ```swift
/// let content = WidgetContent(
///     title: "Orders",
///     rows: [WidgetRow(key: "Open", value: "12")],
///     state: .stale(age: 7_200),
///     footer: WidgetFooter.text(for: .stale(age: 7_200))
/// )
/// ```
public struct WidgetContent: Codable, Hashable, Sendable {
    /// The widget's heading ("Orders · Berlin").
    public var title: String
    /// The business rows, most important first; each family shows as many as it can.
    public var rows: [WidgetRow]
    /// Whether the rows can be trusted; see ``WidgetState``.
    public var state: WidgetState
    /// The line at the bottom ("updated 2 h ago", "open the app to sign in"); see ``WidgetFooter``.
    public var footer: String
    /// Where tapping the widget outside a row leads (built with ``WidgetLink``).
    public var primaryLink: URL?
    /// The app's Lock Screen policy, as the server set it, when the provider knew it; `nil`
    /// leaves the choice to the view (by default the accessory families). See
    /// ``lockScreenRedaction(choosing:)``.
    public var lockScreen: LockScreenRedaction?

    /// Content with every part given.
    public init(title: String, rows: [WidgetRow], state: WidgetState, footer: String, primaryLink: URL? = nil) {
        self.title = title
        self.rows = rows
        self.state = state
        self.footer = footer
        self.primaryLink = primaryLink
    }

    /// Content whose footer is written by ``WidgetFooter/text(for:updatedAt:now:)``.
    ///
    /// - Parameters:
    ///   - updatedAt: When the rows were fetched, if known.
    ///   - now: The clock's time, for "updated 5 min ago".
    public init(
        title: String, rows: [WidgetRow], state: WidgetState,
        updatedAt: Date?, now: Date, primaryLink: URL? = nil
    ) {
        self.init(
            title: title, rows: rows, state: state,
            footer: WidgetFooter.text(for: state, updatedAt: updatedAt, now: now),
            primaryLink: primaryLink
        )
    }

    /// A one-line summary for traces and logs: "fresh 12 rows", "stale 2 h", "signed out".
    public var summary: String {
        switch state {
        case .fresh: "fresh \(rows.count) row\(rows.count == 1 ? "" : "s")"
        case .stale(let age): "stale \(WidgetFooter.ageText(age))"
        case .reauthRequired(let reason): "reauth required (\(reason))"
        case .signedOut, .unavailable: state.name
        }
    }
}
