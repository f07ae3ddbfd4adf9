/// One backend response page as widget rows.
public struct BackendPage: Sendable, Hashable {
    /// The rows, in the backend's order, at most the limit asked for.
    public var rows: [BackendRow]
    /// Where the next page is; nil on the last page.
    public var next: BackendNextPage?
    /// The page's `ETag` response header.
    public var etag: String?
    /// How many items the whole collection holds, where an OData page says it
    /// (`@odata.count` in V4, `d.__count` in V2, sent when asked with `$count=true` or
    /// `$inlinecount=allpages`); nil otherwise.
    public var count: Int?

    /// A page of `rows`.
    public init(rows: [BackendRow], next: BackendNextPage? = nil, etag: String? = nil, count: Int? = nil) {
        self.rows = rows
        self.next = next
        self.etag = etag
        self.count = count
    }
}
