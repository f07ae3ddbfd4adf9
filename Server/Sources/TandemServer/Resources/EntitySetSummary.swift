/// An entity set of a destination (such as `SalesOrders`) and how many rows it holds.
struct EntitySetSummary: Sendable, Hashable {
    /// The name used in URLs (`/v1/destinations/{destination}/{name}`).
    var name: String
    /// How many rows it holds.
    var rowCount: Int
    /// When its rows were last replaced.
    var updatedAt: Timestamp

    /// Creates an entity set summary.
    init(name: String, rowCount: Int, updatedAt: Timestamp) {
        self.name = name
        self.rowCount = rowCount
        self.updatedAt = updatedAt
    }
}
