import NIOCore

/// What the server answers for a backend page: the body and its strong `ETag`. A stale page
/// (the backend is down) has a body of its own (`"stale":true`), so its tag differs too.
struct BackendPageAnswer: Sendable {
    /// The page as `EntitySetPageDocument` writes it.
    let body: ByteBuffer
    /// The body's strong entity tag.
    let tag: String
    /// Whether it is the user's last page again, the backend being down.
    var isStale = false
}
