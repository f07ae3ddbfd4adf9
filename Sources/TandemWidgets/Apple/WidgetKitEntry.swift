#if canImport(WidgetKit) && os(iOS)
import Foundation
import WidgetKit
import TandemWidgetModel

/// A Tandem `TimelineEntry` as the WidgetKit `TimelineEntry` a widget's view receives: the
/// same date, the relevance mapped, and the entry itself in ``base``.
///
/// ```swift
/// AppIntentConfiguration(kind: "orders", intent: DataWidgetIntent.self, provider: provider) { entry in
///     WidgetContentView(content: entry.content)
/// }
/// ```
public struct WidgetKitEntry<Base: TandemWidgetModel.TimelineEntry>: WidgetKit.TimelineEntry, Sendable {
    /// The Tandem entry.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// When the system starts showing the entry: the base entry's date.
    public var date: Date { base.date }

    /// The base entry's relevance, for smart stacks.
    public var relevance: WidgetKit.TimelineEntryRelevance? { base.relevance?.widgetKitRelevance }
}

extension WidgetKitEntry where Base == WidgetContentEntry {
    /// What a business widget shows: the base entry's `WidgetContentEntry/content`.
    public var content: WidgetContent { base.content }
}
#endif
