import TandemProtocol

/// One item of an actionable entity set as stored: its row, and what an action checks of it.
struct ActionableItem: Sendable, Equatable {
    /// Where the item is (its id is the value of the set's id field).
    var address: ItemAddress
    /// The row's JSON text exactly as stored: what a decision's conditional update compares.
    var json: String
    /// The row's fields.
    var row: [String: JSONValue]

    /// The row's current ETag (``ItemActionRules/etagField``), or "" when it has none.
    var etag: String {
        if case .string(let tag)? = row[ItemActionRules.etagField] { return tag }
        return ""
    }

    /// The row's status (``ItemActionRules/statusField``), or `nil` when it is not a string.
    var status: String? {
        if case .string(let status)? = row[ItemActionRules.statusField] { return status }
        return nil
    }
}
