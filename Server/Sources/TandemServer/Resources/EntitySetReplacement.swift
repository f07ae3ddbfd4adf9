/// The answer to a resource server's `PUT /v1/destinations/{destination}/{entitySet}`: the set
/// as now stored.
struct EntitySetReplacement: Encodable, Sendable, Equatable {
    /// The destination's name.
    var destination: String
    /// The entity set's name.
    var entitySet: String
    /// How many rows the set now holds.
    var rowCount: Int
    /// The set's version (the content hash its pages' ETags follow).
    var version: String
    /// Whether its rows changed (`false`: they were already these, and no change was recorded).
    var changed: Bool

    enum CodingKeys: String, CodingKey {
        case destination
        case entitySet = "entity_set"
        case rowCount = "row_count"
        case version
        case changed
    }
}
