import Foundation

/// What the host's fetch returns for one request in a ``BrokeredFulfilment``: the payload to
/// put into the snapshot, the server's ETag, and how long it stays fresh.
///
/// ```swift
/// FetchedData(payload: body, etag: response.etag, lifetime: 15 * 60)
/// ```
public struct FetchedData: Sendable, Equatable {
    /// The data widgets will render.
    public var payload: Data
    /// The server's ETag, if any.
    public var etag: String?
    /// Seconds the snapshot counts as fresh after the fetch.
    public var lifetime: TimeInterval

    /// Creates a fetch result.
    ///
    /// - Parameters:
    ///   - payload: The data widgets will render.
    ///   - etag: The server's ETag, if any.
    ///   - lifetime: Seconds the snapshot stays fresh.
    public init(payload: Data, etag: String? = nil, lifetime: TimeInterval) {
        self.payload = payload
        self.etag = etag
        self.lifetime = lifetime
    }
}
