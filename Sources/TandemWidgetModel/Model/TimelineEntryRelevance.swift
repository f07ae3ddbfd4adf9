#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How relevant an entry is, mirroring WidgetKit's `TimelineEntryRelevance`.
///
/// Scores are relative to the other entries of the same widget; a smart stack rotates to the
/// widget whose current entry scores highest, for `duration` seconds from the entry's date.
public struct TimelineEntryRelevance: Codable, Hashable, Sendable {
    /// The relative score; higher is more relevant. Zero means "not relevant now".
    public var score: Float
    /// For how long, in seconds from the entry's date, the score holds; zero means until the next entry.
    public var duration: TimeInterval

    /// A relevance of `score` that holds for `duration` seconds (zero: until the next entry).
    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}
