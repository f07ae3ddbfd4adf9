/// Why the ``TimelineSimulator`` asked a provider for a timeline.
public enum ReloadReason: String, Codable, Hashable, Sendable {
    /// The widget was just placed.
    case installed
    /// The timeline's `ReloadPolicy` came due (or a day's budget renewed after it was spent).
    case policy
    /// The host app called `reloadTimelines(ofKind:)` or `reloadAllTimelines()`.
    case host
}
