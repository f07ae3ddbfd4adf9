#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// Tandem's `ReloadPolicy` as WidgetKit's `TimelineReloadPolicy`, case for case.
extension ReloadPolicy {
    /// The WidgetKit policy: `.atEnd`, `.after(date)` or `.never`.
    public var timelineReloadPolicy: TimelineReloadPolicy {
        switch self {
        case .atEnd: .atEnd
        case .after(let date): .after(date)
        case .never: .never
        }
    }
}
#endif
