#if canImport(SwiftUI) && canImport(WidgetKit) && os(iOS)
import SwiftUI
import WidgetKit

extension View {
    /// `color` behind a widget's content.
    ///
    /// On iOS 17 and later this is `containerBackground(for: .widget)`, which they require (a
    /// widget without it shows "Please adopt containerBackground API") and which brings the
    /// system's content margins, so no padding is added. iOS 16, and an SDK older than iOS 17's,
    /// have no such API: the system draws the background and `padded` adds the standard margin.
    /// The guard is the one `DataWidgetIntent.swift` explains: WidgetKit 378 is iOS 17.0's.
    ///
    /// - Parameters:
    ///   - color: The background (`.clear` for Lock Screen families, which the system draws).
    ///   - padded: Whether the widget needs the margin before iOS 17 (system families do).
    @ViewBuilder
    func widgetBackground(_ color: Color, padded: Bool) -> some View {
        #if canImport(WidgetKit, _version: 378)
        if #available(iOS 17.0, *) {
            containerBackground(for: .widget) { color }
        } else {
            systemMargin(padded)
        }
        #else
        systemMargin(padded)
        #endif
    }

    /// Before iOS 17 the system draws a widget's background and the widget keeps its own margin.
    @ViewBuilder
    private func systemMargin(_ padded: Bool) -> some View {
        if padded {
            padding(16)
        } else {
            self
        }
    }
}
#endif
