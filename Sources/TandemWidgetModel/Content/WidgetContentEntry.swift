#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A timeline entry that shows ``WidgetContent``: what business widgets' providers return.
///
/// Its `description` is the content's ``WidgetContent/summary``, which is what
/// `TimelineSimulator` writes in its trace.
public struct WidgetContentEntry: TimelineEntry, Codable, Hashable, CustomStringConvertible {
    /// When the entry is shown.
    public var date: Date
    /// What the widget shows.
    public var content: WidgetContent
    /// The relevance hint, if any.
    public var relevance: TimelineEntryRelevance?

    /// An entry showing `content` from `date`.
    public init(date: Date, content: WidgetContent, relevance: TimelineEntryRelevance? = nil) {
        self.date = date
        self.content = content
        self.relevance = relevance
    }

    /// The content's summary: "fresh 12 rows", "stale 2 h".
    public var description: String { content.summary }
}
