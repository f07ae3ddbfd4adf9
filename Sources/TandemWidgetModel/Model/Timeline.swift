#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The entries a provider wants shown, in date order, and when to ask it again.
///
/// Mirrors WidgetKit's `Timeline`:
///
/// ```swift
/// let timeline = Timeline(entries: [now, inOneHour].map { CountEntry(date: $0, count: 3) },
///                         policy: .atEnd)
/// ```
public struct Timeline<Entry: TimelineEntry>: Sendable {
    /// The entries, sorted by date.
    public var entries: [Entry]
    /// When the system should ask for the next timeline.
    public var policy: ReloadPolicy

    /// A timeline of `entries` (sorted by date here, so callers need not) with `policy`.
    public init(entries: [Entry], policy: ReloadPolicy) {
        self.entries = entries.sorted { $0.date < $1.date }
        self.policy = policy
    }
}
