/// The body of `GET /v1/destinations`: every destination and its entity sets.
struct DestinationList: Encodable, Sendable {
    /// The destinations, sorted by name.
    let destinations: [Destination]

    /// One destination.
    struct Destination: Encodable, Sendable {
        /// Its name, as used in URLs.
        let name: String
        /// Its human-readable title.
        let title: String
        /// Its entity sets, sorted by name.
        let entitySets: [EntitySet]

        enum CodingKeys: String, CodingKey {
            case name, title
            case entitySets = "entity_sets"
        }
    }

    /// One entity set.
    struct EntitySet: Encodable, Sendable {
        /// Its name, as used in URLs.
        let name: String
        /// How many rows it holds.
        let count: Int
        /// When its rows were last replaced (ISO 8601, UTC).
        let updatedAt: String
        /// The path of its first page.
        let href: String

        enum CodingKeys: String, CodingKey {
            case name, count, href
            case updatedAt = "updated_at"
        }
    }

    /// The list for `destinations`.
    init(_ destinations: [DestinationSummary]) {
        self.destinations = destinations.map { destination in
            Destination(name: destination.name, title: destination.title, entitySets: destination.entitySets.map { set in
                EntitySet(
                    name: set.name, count: set.rowCount, updatedAt: set.updatedAt.iso8601,
                    href: ResourceEndpoint.path(destination: destination.name, entitySet: set.name))
            })
        }
    }
}
