#if canImport(SwiftUI) && os(iOS)
import SwiftUI
import TandemWidgetModel

/// The state badge's colour for SwiftUI: the same `#RRGGBB` the SVG renderer draws, so a
/// widget on a phone and its preview in CI mark each state alike.
extension StateBadge {
    /// `color` as a SwiftUI colour (a grey for a value that is not `#RRGGBB`).
    var swiftUIColor: Color {
        let rgb = color.count == 7 && color.hasPrefix("#") ? UInt32(color.dropFirst(), radix: 16) ?? 0x5F6368 : 0x5F6368
        return Color(
            red: Double((rgb >> 16) & 0xFF) / 255,
            green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255)
    }
}
#endif
