#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// Tandem's `WidgetFamily` and WidgetKit's, both ways. The two enums share every case
/// name; WidgetKit's is qualified here because the names clash inside this module.
///
/// iOS only: macOS has no Lock Screen families and watchOS no system ones, so there the
/// mapping would not be total. Needs no entitlement.
///
/// ```swift
/// StaticConfiguration(kind: "orders", provider: provider) { entry in WidgetContentView(content: entry.base.content) }
///     .supportedFamilies(TandemWidgetModel.WidgetFamily.allCases.map(\.widgetKitFamily))
/// ```
extension TandemWidgetModel.WidgetFamily {
    /// The Tandem family of a WidgetKit family, or `nil` for one Tandem does not draw (a family
    /// newer than this code, or watchOS's `accessoryCorner`).
    public init?(_ family: WidgetKit.WidgetFamily) {
        switch family {
        case .systemSmall: self = .systemSmall
        case .systemMedium: self = .systemMedium
        case .systemLarge: self = .systemLarge
        case .systemExtraLarge: self = .systemExtraLarge
        case .accessoryCircular: self = .accessoryCircular
        case .accessoryRectangular: self = .accessoryRectangular
        case .accessoryInline: self = .accessoryInline
        default: return nil
        }
    }

    /// The WidgetKit family of this family, for `supportedFamilies(_:)` and previews.
    public var widgetKitFamily: WidgetKit.WidgetFamily {
        switch self {
        case .systemSmall: .systemSmall
        case .systemMedium: .systemMedium
        case .systemLarge: .systemLarge
        case .systemExtraLarge: .systemExtraLarge
        case .accessoryCircular: .accessoryCircular
        case .accessoryRectangular: .accessoryRectangular
        case .accessoryInline: .accessoryInline
        }
    }
}
#endif
