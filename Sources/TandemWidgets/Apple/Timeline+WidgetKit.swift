#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// Tandem's `Timeline` as WidgetKit's: each entry wrapped in ``WidgetKitEntry``, the policy mapped.
extension TandemWidgetModel.Timeline {
    /// The WidgetKit timeline of these entries (already sorted by date) and this policy.
    public var widgetKitTimeline: WidgetKit.Timeline<WidgetKitEntry<Entry>> {
        WidgetKit.Timeline(entries: entries.map(WidgetKitEntry.init), policy: policy.timelineReloadPolicy)
    }
}
#endif
