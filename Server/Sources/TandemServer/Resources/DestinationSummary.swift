/// A destination (a business system the server exposes, such as `sales`) and its entity sets.
struct DestinationSummary: Sendable, Hashable {
    /// The name used in URLs (`/v1/destinations/{name}/…`).
    var name: String
    /// A human-readable title.
    var title: String
    /// Its entity sets, sorted by name.
    var entitySets: [EntitySetSummary]

    /// Creates a destination summary.
    init(name: String, title: String, entitySets: [EntitySetSummary]) {
        self.name = name
        self.title = title
        self.entitySets = entitySets
    }
}
