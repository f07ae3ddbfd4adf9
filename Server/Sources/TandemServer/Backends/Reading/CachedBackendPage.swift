import NIOCore

/// A backend page as this server last rendered it for one ``BackendPageKey``: the response body
/// and its `ETag`, what the backend's own `ETag` was (to revalidate with `If-None-Match`), until
/// when the backend said it stays fresh, and the parts needed to send it again marked stale.
struct CachedBackendPage: Sendable {
    /// The page as `EntitySetPageDocument` writes it.
    let body: ByteBuffer
    /// The body's strong entity tag: the server's own, per user.
    let tag: String
    /// The backend's `ETag` for the page, sent back as `If-None-Match`.
    let backendETag: String?
    /// When the page was last read or revalidated.
    let fetchedAt: Timestamp
    /// Until when it is served without asking the backend (its `Cache-Control: max-age`); at
    /// or before ``fetchedAt`` when every use must revalidate.
    let freshUntil: Timestamp
    /// The rows, as JSON objects, and the paging fields: to write the stale page.
    let rows: [String]
    /// The next page's path, or nil.
    let next: String?
    /// How many rows the set holds, when the backend said.
    let total: Int?

    /// The same page, read again (or confirmed by a `304`) at `now` and fresh until `freshUntil`.
    func revalidated(at now: Timestamp, freshUntil: Timestamp) -> CachedBackendPage {
        CachedBackendPage(
            body: body, tag: tag, backendETag: backendETag, fetchedAt: now, freshUntil: freshUntil, rows: rows, next: next, total: total)
    }
}
