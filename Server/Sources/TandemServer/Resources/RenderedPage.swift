import NIOCore

/// A page's response body as sent, its `ETag`, and the entity-set version it was rendered from:
/// reusable for as long as the set's version is unchanged.
struct RenderedPage: Sendable {
    /// Which page: destination, entity set and paging.
    struct Key: Hashable, Sendable {
        /// The destination's name.
        let destination: String
        /// The entity set's name.
        let entitySet: String
        /// The paging parameters.
        let paging: PageRequest
    }

    /// The JSON body.
    let body: ByteBuffer
    /// Its strong entity tag.
    let tag: String
    /// The entity set's version the body shows.
    let version: String
}
