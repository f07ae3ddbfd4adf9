/// Where an item lives: its destination, its entity set and its id in that set — the one value
/// every action, request, result and proof about the item names it by.
///
/// ```swift
/// let address = ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003")
/// APIPath.itemAction(address, action: .approve)  // /v1/destinations/sales/Approvals/PR-1003/actions/approve
/// ```
///
/// Documents on the wire keep the three as fields of their own (`destination`, `entitySet` or
/// `entity_set`, `item`); types that carry them expose them as one `address`.
public struct ItemAddress: Sendable, Hashable, CustomStringConvertible {
    /// The destination's name, such as `sales`.
    public var destination: String
    /// The entity set's name, such as `Approvals`.
    public var entitySet: String
    /// The item's id in its set (the value of the set's id field), such as `PR-1003`.
    public var item: String

    /// The item `item` of `destination`/`entitySet`.
    public init(destination: String, entitySet: String, item: String) {
        self.destination = destination
        self.entitySet = entitySet
        self.item = item
    }

    /// `sales/Approvals/PR-1003`, for logs and messages.
    public var description: String { "\(destination)/\(entitySet)/\(item)" }
}
