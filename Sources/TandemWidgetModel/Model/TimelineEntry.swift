#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thing a widget shows from a given date on, mirroring WidgetKit's `TimelineEntry`.
///
/// A provider returns entries in a ``Timeline``; the system shows each one from its `date`
/// until the next entry's date.
///
/// ```swift
/// struct CountEntry: TimelineEntry {
///     var date: Date
///     var count: Int
/// }
/// ```
public protocol TimelineEntry: Sendable {
    /// When the system starts showing this entry.
    var date: Date { get }
    /// How relevant the entry is, for the system's smart stacks; `nil` when it has no opinion.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    /// No relevance hint unless an entry gives one.
    public var relevance: TimelineEntryRelevance? { nil }
}
