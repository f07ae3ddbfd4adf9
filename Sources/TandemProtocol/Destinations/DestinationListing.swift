/// The body of ``APIPath/destinations``: every destination (a business system the server
/// exposes, such as `sales`) and its entity sets. The server encodes it, the SDK's catalog
/// decodes it; this is its one definition.
///
/// ```swift
/// let listing = try JSONDecoder().decode(DestinationListing.self, from: body)
/// let sets = listing.destinations.flatMap(\.entitySets).map(\.name)
/// ```
public struct DestinationListing: Codable, Hashable, Sendable {
    /// The destinations, sorted by name.
    public var destinations: [Destination]

    /// One destination.
    public struct Destination: Codable, Hashable, Sendable {
        /// Its name, as used in URLs.
        public var name: String
        /// Its human-readable title.
        public var title: String
        /// Its entity sets, sorted by name.
        public var entitySets: [EntitySet]

        /// A destination `name` titled `title` with `entitySets`.
        public init(name: String, title: String, entitySets: [EntitySet]) {
            self.name = name
            self.title = title
            self.entitySets = entitySets
        }

        enum CodingKeys: String, CodingKey {
            case name, title
            case entitySets = "entity_sets"
        }
    }

    /// One entity set.
    public struct EntitySet: Codable, Hashable, Sendable {
        /// Its name, as used in URLs.
        public var name: String
        /// How many rows it holds; nil (`null`) for a set read from a customer's backend, whose
        /// size is the backend's and the user's.
        public var count: Int?
        /// When its rows were last replaced (ISO 8601, UTC); nil (`null`) for a set read from a
        /// customer's backend.
        public var updatedAt: String?
        /// The path of its first page (``APIPath/entitySet(destination:entitySet:limit:offset:)``).
        public var href: String

        /// The entity set `name` of `destination`, holding `count` rows since `updatedAt` (both
        /// nil for a set read from a customer's backend).
        public init(name: String, destination: String, count: Int?, updatedAt: String?) {
            self.name = name
            self.count = count
            self.updatedAt = updatedAt
            href = APIPath.entitySet(destination: destination, entitySet: name)
        }

        enum CodingKeys: String, CodingKey {
            case name, count, href
            case updatedAt = "updated_at"
        }

        /// Encodes every member, an unknown count or time as `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(count, forKey: .count)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(href, forKey: .href)
        }
    }

    /// A listing of `destinations`.
    public init(destinations: [Destination]) {
        self.destinations = destinations
    }
}
