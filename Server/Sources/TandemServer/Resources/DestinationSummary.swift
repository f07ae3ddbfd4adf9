/// A destination (a business system the server exposes, such as `sales`) and its entity sets.
public struct DestinationSummary: Sendable, Hashable {
    /// The name used in URLs (`/v1/destinations/{name}/…`).
    public var name: String
    /// A human-readable title.
    public var title: String
    /// Its entity sets, sorted by name.
    public var entitySets: [EntitySetSummary]

    /// Creates a destination summary.
    public init(name: String, title: String, entitySets: [EntitySetSummary]) {
        self.name = name
        self.title = title
        self.entitySets = entitySets
    }
}
