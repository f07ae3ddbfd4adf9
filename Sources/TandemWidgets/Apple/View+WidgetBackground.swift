#if canImport(SwiftUI) && canImport(WidgetKit) && os(iOS)
import SwiftUI
import WidgetKit

extension View {
    /// `color` behind a widget's content.
    ///
    /// With an iOS 17 or later SDK this is `containerBackground(for: .widget)`, which iOS 17 and
    /// later require (a widget without it shows "Please adopt containerBackground API") and which
    /// brings the system's content margins, so no padding is added. With an older SDK there is no
    /// such API: the system draws the background and `padded` adds the standard margin itself.
    /// The guard is the one `DataWidgetIntent.swift` explains: WidgetKit 378 is iOS 17.0's.
    ///
    /// - Parameters:
    ///   - color: The background (`.clear` for Lock Screen families, which the system draws).
    ///   - padded: Whether an old SDK's widget needs the margin (system families do).
    @ViewBuilder
    func widgetBackground(_ color: Color, padded: Bool) -> some View {
        #if canImport(WidgetKit, _version: 378)
        containerBackground(for: .widget) { color }
        #else
        if padded {
            padding(16)
        } else {
            self
        }
        #endif
    }
}
#endif
