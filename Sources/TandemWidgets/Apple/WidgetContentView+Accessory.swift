#if canImport(SwiftUI) && canImport(WidgetKit) && os(iOS)
import SwiftUI
import WidgetKit

/// The Lock Screen layouts. The system draws them in one tint, so a state other than fresh is
/// said in words ("Stale", "Signed out"), not only in the badge's colour.
extension WidgetContentView {
    /// One line above the clock: "Orders: SO500001 Alpine Logistics", or the footer with no rows.
    var inline: some View {
        let title = content.state == .fresh ? content.title : "\(content.title) · \(badge.label)"
        guard let row = content.rows.first else { return Text("\(title): \(content.footer)").privacySensitive(false) }
        // The inline family draws one Text, so a locked phone hides the whole line.
        return Text("\(title): \(row.key) \(row.value)").privacySensitive(rowsArePrivate)
    }

    /// The first row's value over its key (or the state, when not fresh) in a ring of the
    /// badge's colour; with no rows, the state.
    var circular: some View {
        ZStack {
            AccessoryWidgetBackground()
            Circle().strokeBorder(badge.swiftUIColor, lineWidth: 3)
            VStack(spacing: 0) {
                if let row = content.rows.first {
                    Text(row.value).font(.system(size: 16, weight: .bold)).minimumScaleFactor(0.5).lineLimit(1)
                        .privacySensitive(rowsArePrivate)
                    Text(content.state == .fresh ? row.key : badge.label).font(.system(size: 8)).lineLimit(1)
                        .privacySensitive(rowsArePrivate && content.state == .fresh)
                } else {
                    Text(badge.label).font(.system(size: 10, weight: .semibold)).multilineTextAlignment(.center)
                        .minimumScaleFactor(0.6).lineLimit(2)
                }
            }
            .padding(6)
        }
    }

    /// The title (and the state when not fresh) over the rows that fit, or the footer.
    var rectangular: some View {
        VStack(alignment: .leading, spacing: 1) {
            HStack(spacing: 4) {
                Text(content.title).font(.headline).lineLimit(1).widgetAccentable()
                if content.state != .fresh {
                    Spacer(minLength: 2)
                    Text(badge.label).font(.caption2.weight(.semibold)).lineLimit(1)
                }
            }
            if content.rows.isEmpty {
                Text(content.footer).font(.caption).lineLimit(2)
            } else {
                ForEach(shownRows, id: \.offset) { _, row in
                    HStack(spacing: 4) {
                        Text(row.key).lineLimit(1)
                        Spacer(minLength: 4)
                        Text(row.value).fontWeight(.semibold).lineLimit(1)
                    }
                    .font(.caption)
                    .privacySensitive(rowsArePrivate)
                }
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}
#endif
