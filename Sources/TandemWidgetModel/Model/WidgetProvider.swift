/// Produces what a widget shows, mirroring WidgetKit's `AppIntentTimelineProvider`.
///
/// The user's choices for an instance (for a business widget: which destination and entity
/// set) arrive as `Configuration`. None of the methods throws: a provider turns every failure
/// (signed out, device locked, damaged data) into an entry that says so, because a widget
/// that fails shows the user a blank card.
///
/// ```swift
/// struct CountProvider: WidgetProvider {
///     func placeholder(in context: WidgetContext) -> CountEntry { CountEntry(date: .now, count: 0) }
///     func snapshot(for configuration: CountConfiguration, in context: WidgetContext) async -> CountEntry {
///         placeholder(in: context)
///     }
///     func timeline(for configuration: CountConfiguration, in context: WidgetContext) async -> Timeline<CountEntry> {
///         Timeline(entries: [placeholder(in: context)], policy: .never)
///     }
/// }
/// ```
public protocol WidgetProvider: Sendable {
    /// The entry type this provider produces.
    associatedtype Entry: TimelineEntry
    /// The user's choices for one widget instance (an App Intent's parameters on Apple).
    /// `Codable` so a tap link can carry it, `Hashable` so instances can be told apart.
    associatedtype Configuration: Codable & Hashable & Sendable

    /// An entry to show while the widget loads: synchronous, no I/O, no user data.
    ///
    /// - Parameter context: The family and size being drawn.
    func placeholder(in context: WidgetContext) -> Entry

    /// One entry, quickly, for the widget gallery and transient displays. When
    /// `context.isPreview` is true, answer with sample data without any I/O.
    ///
    /// - Parameters:
    ///   - configuration: The instance's configuration.
    ///   - context: The family and size being drawn.
    func snapshot(for configuration: Configuration, in context: WidgetContext) async -> Entry

    /// The entries to show from now on and when to ask again.
    ///
    /// - Parameters:
    ///   - configuration: The instance's configuration.
    ///   - context: The family and size being drawn.
    func timeline(for configuration: Configuration, in context: WidgetContext) async -> Timeline<Entry>
}
