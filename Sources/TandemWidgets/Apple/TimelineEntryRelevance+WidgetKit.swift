#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// Tandem's `TimelineEntryRelevance` as WidgetKit's, which has the same two fields.
extension TandemWidgetModel.TimelineEntryRelevance {
    /// The WidgetKit relevance: the same score, for the same duration.
    public var widgetKitRelevance: WidgetKit.TimelineEntryRelevance {
        WidgetKit.TimelineEntryRelevance(score: score, duration: duration)
    }
}
#endif
