/// One page of an entity set's rows, in their stored order.
public struct EntityPage: Sendable, Hashable {
    /// How many rows the whole entity set holds.
    public var total: Int
    /// The page's rows, each a JSON object as stored (canonical: sorted keys, no whitespace).
    public var rows: [String]

    /// Creates a page.
    public init(total: Int, rows: [String]) {
        self.total = total
        self.rows = rows
    }
}
