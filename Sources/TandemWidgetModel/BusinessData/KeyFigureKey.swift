import TandemProtocol

/// Names one key figure of a destination, as a widget asks its host for it (request kind
/// ``kind``): how many rows an entity set holds, or one field of its first row (an OData
/// aggregate or a REST summary the set's query reduced to one row).
///
/// ```swift
/// let open = KeyFigureKey(destination: "erp", entitySet: "Approvals")                  // the count
/// let total = KeyFigureKey(destination: "erp", entitySet: "Totals", field: "amount")    // a field
/// ```
public struct KeyFigureKey: Codable, Hashable, Sendable {
    /// The request kind key figures are asked for under.
    public static let kind = "key-figure"

    /// The destination, such as `erp`.
    public var destination: String
    /// The entity set, such as `Approvals`.
    public var entitySet: String
    /// The field of the first row whose value is the figure; nil: the set's row count.
    public var field: String?

    /// The figure of `entitySet` in `destination`: `field` of its first row, or its count.
    public init(destination: String, entitySet: String, field: String? = nil) {
        self.destination = destination
        self.entitySet = entitySet
        self.field = field
    }

    /// The path of the one-row page the figure is read from.
    public var resourcePath: String {
        APIPath.entitySet(destination: destination, entitySet: entitySet, limit: 1)
    }
}
