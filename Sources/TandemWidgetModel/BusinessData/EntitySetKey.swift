#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// What a business-data widget shows: one page of an entity set of a destination. It is the key
/// of the widget's data request and of the snapshot that answers it.
///
/// ```swift
/// let key = EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 20)
/// let response = try await client.get(key.resourcePath, tokens: session.coordinator)
/// ```
public struct EntitySetKey: Codable, Hashable, Sendable {
    /// The request kind entity-set pages are asked for under.
    public static let kind = "entity-set"

    /// The destination, such as `sales`.
    public var destination: String
    /// The entity set, such as `SalesOrders`.
    public var entitySet: String
    /// How many rows the page holds.
    public var limit: Int

    /// Names a page of `entitySet` in `destination` with `limit` rows.
    public init(destination: String, entitySet: String, limit: Int) {
        self.destination = destination
        self.entitySet = entitySet
        self.limit = limit
    }

    /// The resource path under the server's `/v1/destinations`, each segment percent-encoded.
    public var resourcePath: String {
        APIPath.entitySet(destination: destination, entitySet: entitySet, limit: limit)
    }
}
