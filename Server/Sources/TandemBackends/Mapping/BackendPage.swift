/// One backend response page as widget rows.
public struct BackendPage: Sendable, Hashable {
    /// The rows, in the backend's order, at most the limit asked for.
    public var rows: [BackendRow]
    /// Where the next page is; nil on the last page.
    public var next: BackendNextPage?
    /// The page's `ETag` response header.
    public var etag: String?

    /// A page of `rows`.
    public init(rows: [BackendRow], next: BackendNextPage? = nil, etag: String? = nil) {
        self.rows = rows
        self.next = next
        self.etag = etag
    }
}
