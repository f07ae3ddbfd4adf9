#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The host's answer to a data request: the fetched payload and when it was fetched, written
/// sealed (under ``ContainerKey/Purpose/snapshots``) into the container's `snapshots/` folder
/// for widgets to render.
///
/// ```swift
/// let snapshot = Snapshot(payload: json, fetchedAt: Date(), etag: "\"v42\"",
///                         expiresAt: Date().addingTimeInterval(15 * 60))
/// try container.snapshots.write(snapshot, for: request)
/// ```
public struct Snapshot: Codable, Sendable, Equatable {
    /// The data, in whatever form the app chose (typically the server's JSON).
    public var payload: Data
    /// When the host fetched it.
    public var fetchedAt: Date
    /// The server's ETag for it, for a conditional refetch.
    public var etag: String?
    /// Until when it counts as fresh.
    public var expiresAt: Date

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - payload: The data to render.
    ///   - fetchedAt: When it was fetched.
    ///   - etag: The server's ETag, if any.
    ///   - expiresAt: Until when it is fresh; after that widgets show it as stale.
    public init(payload: Data, fetchedAt: Date, etag: String? = nil, expiresAt: Date) {
        self.payload = payload
        self.fetchedAt = fetchedAt
        self.etag = etag
        self.expiresAt = expiresAt
    }

    static let recordKind = "snapshot"

    static func path(id: String) -> String { "snapshots/\(id).snapshot" }
}
