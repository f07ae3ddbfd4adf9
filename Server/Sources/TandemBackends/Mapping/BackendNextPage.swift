/// Where the page after this one is, as the backend said it.
public enum BackendNextPage: Sendable, Hashable {
    /// A URL to request next (`@odata.nextLink`, `__next`, a `Link: rel="next"` target, a REST
    /// `next` field), as written: a relative reference is resolved by the caller against the
    /// request's URL.
    case url(String)
    /// An opaque REST cursor to send with the next request.
    case cursor(String)
}
