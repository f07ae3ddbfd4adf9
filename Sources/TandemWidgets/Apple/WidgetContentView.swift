#if canImport(SwiftUI) && canImport(WidgetKit) && os(iOS)
import SwiftUI
import UIKit
import WidgetKit
import TandemWidgetModel

/// Draws `WidgetContent` in a widget as `WidgetRenderer` draws it in a preview: the title, a
/// badge naming the state in its own colour, the rows the family holds
/// (`WidgetFamily/rowCapacity`) and the footer; with no rows, the footer takes the body's place.
///
/// Taps: the whole widget opens `WidgetContent/primaryLink` (`widgetURL`); in medium, large
/// and extra-large widgets a row with a `WidgetRow/link` opens that instead (a SwiftUI `Link`,
/// which WidgetKit honours only there). Lock Screen families (accessory) are compact and open
/// the primary link only. In medium, large and extra-large widgets an actionable row
/// (`WidgetRow/action`) shows Approve and Reject buttons that run `ItemActionIntent` (iOS 17),
/// and a row the user acted on says where that stands (`WidgetRow/actionState`); the small card
/// shows the state in place of the value. In the families `LockScreenRedaction` covers (the
/// server's policy the content carries, `WidgetContent/lockScreen`, together with the app's own
/// choice; by default the accessory ones) the rows are `privacySensitive`: a locked phone draws
/// placeholders. Needs no entitlement of its own.
///
/// ```swift
/// StaticConfiguration(kind: "orders", provider: timelineProvider) { entry in
///     WidgetContentView(content: entry.content)               // the family the system draws
/// }
/// ```
///
/// and in the app, a preview of one family:
///
/// ```swift
/// WidgetContentView(content: DataWidgetProvider.sampleContent, family: .systemMedium)
/// ```
public struct WidgetContentView: View {
    /// What the widget shows.
    public let content: WidgetContent
    /// The families whose rows the system hides while the phone is locked.
    public let lockScreen: LockScreenRedaction
    private let fixedFamily: TandemWidgetModel.WidgetFamily?
    @Environment(\.widgetFamily) private var environmentFamily
    @Environment(\.widgetRenderingMode) private var renderingMode

    /// A view drawing `content` laid out for `family`.
    ///
    /// - Parameter lockScreen: The families whose rows are `privacySensitive`, drawn as
    ///   placeholders while the phone is locked, besides those of the server's policy the
    ///   content carries (`nil`: the server's policy alone, or the accessory families).
    public init(content: WidgetContent, family: TandemWidgetModel.WidgetFamily, lockScreen: LockScreenRedaction? = nil) {
        self.content = content
        self.fixedFamily = family
        self.lockScreen = content.lockScreenRedaction(choosing: lockScreen)
    }

    /// A view drawing `content` laid out for the family the system draws (`\.widgetFamily`);
    /// a family newer than this code is laid out as `systemMedium`.
    ///
    /// - Parameter lockScreen: The families whose rows are `privacySensitive`, drawn as
    ///   placeholders while the phone is locked, besides those of the server's policy the
    ///   content carries (`nil`: the server's policy alone, or the accessory families).
    public init(content: WidgetContent, lockScreen: LockScreenRedaction? = nil) {
        self.content = content
        self.fixedFamily = nil
        self.lockScreen = content.lockScreenRedaction(choosing: lockScreen)
    }

    /// The family laid out.
    var family: TandemWidgetModel.WidgetFamily {
        fixedFamily ?? TandemWidgetModel.WidgetFamily(environmentFamily) ?? .systemMedium
    }

    var badge: StateBadge { StateBadge(content.state) }

    /// Whether this family's rows are hidden while the phone is locked.
    var rowsArePrivate: Bool { lockScreen.hidesRows(in: family) }

    /// The rows drawn, numbered so equal rows stay distinct.
    var shownRows: [(offset: Int, element: WidgetRow)] {
        Array(content.rows.prefix(family.rowCapacity).enumerated())
    }

    public var body: some View {
        Group {
            switch family {
            case .accessoryInline: inline
            case .accessoryCircular: circular
            case .accessoryRectangular: rectangular
            case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge: card
            }
        }
        .widgetURL(content.primaryLink)
        .widgetBackground(family.isAccessory ? .clear : Color(uiColor: .systemBackground), padded: !family.isAccessory)
    }

    // MARK: - System families

    private var card: some View {
        VStack(alignment: .leading, spacing: 2) {
            HStack(alignment: .firstTextBaseline, spacing: 6) {
                Text(content.title).font(.system(size: 15, weight: .semibold)).lineLimit(1)
                Spacer(minLength: 0)
                stateBadge
            }
            .padding(.bottom, 4)
            if content.rows.isEmpty {
                // With no rows, the footer says what to do, so it gets the room.
                Text(content.footer).font(.system(size: 13)).lineLimit(4)
                Spacer(minLength: 0)
            } else {
                ForEach(shownRows, id: \.offset) { _, row in linked(row) }
                Spacer(minLength: 0)
                Text(content.footer).font(.system(size: 11)).foregroundColor(.secondary).lineLimit(1)
            }
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
    }

    /// The state's name in a capsule: white on the state's colour in full colour; in the
    /// accented and vibrant modes (tinted Home Screen, StandBy), where the system replaces
    /// colours, the name in the primary colour inside an outline, accented, so it stays legible.
    @ViewBuilder
    private var stateBadge: some View {
        let isFullColor = renderingMode == .fullColor
        let label = Text(badge.label).font(.system(size: 10, weight: .semibold)).lineLimit(1)
            .foregroundColor(isFullColor ? .white : .primary)
            .padding(.horizontal, 7)
            .padding(.vertical, 2)
        if isFullColor {
            label.background(Capsule().fill(badge.swiftUIColor))
        } else {
            label.overlay(Capsule().strokeBorder(Color.primary, lineWidth: 1)).widgetAccentable()
        }
    }

    /// `row`, opening its own link where the family allows one, with its actions beside it
    /// (outside the link, so a button's tap runs its intent and never opens the app).
    private func linked(_ row: WidgetRow) -> some View {
        HStack(spacing: 6) {
            if let link = row.link, family != .systemSmall {
                Link(destination: link) { line(row) }
            } else {
                line(row)
            }
            rowActions(row)
        }
    }

    private func line(_ row: WidgetRow) -> some View {
        HStack(spacing: 6) {
            if let name = row.imageName {
                image(name).font(.system(size: 12))
            }
            Text(row.key).lineLimit(1)
            Spacer(minLength: 8)
            // Where the family has no room for buttons, the row's action state replaces its value.
            if !family.showsActions, let state = row.actionState {
                actionStateLabel(state)
            } else {
                Text(row.value).fontWeight(.semibold).monospacedDigit().lineLimit(1)
            }
        }
        .font(.system(size: 13))
        .foregroundColor(.primary)
        .frame(height: family == .systemLarge || family == .systemExtraLarge ? 26 : 20)
        .privacySensitive(rowsArePrivate)
        .accessibilityElement(children: .combine)
    }

    /// The SF Symbol `name`, else the asset `name` (which draws nothing when the app has none).
    func image(_ name: String) -> Image {
        UIImage(systemName: name) != nil ? Image(systemName: name) : Image(name)
    }
}
#endif
