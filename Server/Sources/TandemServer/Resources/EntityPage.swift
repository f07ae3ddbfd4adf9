/// One page of an entity set's rows, in their stored order.
struct EntityPage: Sendable, Hashable {
    /// How many rows the whole entity set holds.
    var total: Int
    /// The page's rows, each a JSON object as stored (canonical: sorted keys, no whitespace).
    var rows: [String]
    /// The entity set's version (its content hash) when the page was read: equal versions mean
    /// equal rows.
    var version: String

    /// Creates a page.
    init(total: Int, rows: [String], version: String) {
        self.total = total
        self.rows = rows
        self.version = version
    }
}
