import TandemPlatform

/// One change of an entity set's rows, as the change feed records it.
struct EntitySetChange: Sendable, Hashable {
    /// The change's identifier (a ``SortableID``; with ``changedAt`` it orders the feed).
    var id: String
    /// The destination's name.
    var destination: String
    /// The entity set's name.
    var entitySet: String
    /// The set's version after the change: the content hash its pages' ETags follow.
    var version: String
    /// How many rows the set holds after the change.
    var rowCount: Int
    /// When the change was written.
    var changedAt: Timestamp
    /// The user whose data changed, when a customer's backend said; nil: everyone's.
    var userID: String? = nil
}
