/// One widget row made from one backend item: an id and whichever mapped fields the item has,
/// as text. Amounts are exact decimal text (`"4805.10"`), dates ISO 8601 in UTC.
public struct BackendRow: Sendable, Hashable {
    /// The item's id.
    public var id: String
    /// The row's title.
    public var title: String?
    /// The row's second line.
    public var subtitle: String?
    /// A value shown beside the title.
    public var value: String?
    /// A status text.
    public var status: String?
    /// A money amount: decimal text without an exponent, sign kept (`"-12.50"`).
    public var amount: String?
    /// The amount's currency code.
    public var currency: String?
    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS[.mmm]Z` in UTC.
    public var date: String?
    /// The item's ETag, for a later conditional write.
    public var etag: String?
    /// The item's own URL, where the backend says it (OData V2 `__metadata.uri`, V4 `@odata.id`).
    public var address: String?

    /// A row with `id` and the given fields.
    public init(
        id: String, title: String? = nil, subtitle: String? = nil, value: String? = nil, status: String? = nil,
        amount: String? = nil, currency: String? = nil, date: String? = nil, etag: String? = nil,
        address: String? = nil
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.value = value
        self.status = status
        self.amount = amount
        self.currency = currency
        self.date = date
        self.etag = etag
        self.address = address
    }

    /// The row as one compact JSON object, keys sorted, absent fields left out, every value a
    /// string: ready to be spliced into a page's `{"items":[…]}`.
    ///
    /// ```swift
    /// BackendRow(id: "0500000000", amount: "25867.03").json()
    /// // {"amount":"25867.03","id":"0500000000"}
    /// ```
    public func json() -> String {
        var writer = CompactJSONWriter()
        writer.beginObject()
        let fields: [(String, String?)] = [
            ("address", address), ("amount", amount), ("currency", currency), ("date", date), ("etag", etag),
            ("id", id), ("status", status), ("subtitle", subtitle), ("title", title), ("value", value),
        ]
        for (key, value) in fields {
            if let value { writer.member(key, value) }
        }
        writer.endObject()
        return writer.text
    }
}
