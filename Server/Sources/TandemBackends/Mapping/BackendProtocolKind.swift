/// The protocol a customer's backend speaks, which fixes where a page keeps its items, its next
/// page and each item's ETag. Written `rest`, `odata-v4` or `odata-v2` in a configuration.
public enum BackendProtocolKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Plain JSON over HTTP: the mapping says where everything is.
    case rest
    /// OData V4: items in `value`, `@odata.nextLink`, `@odata.etag`.
    case odataV4 = "odata-v4"
    /// OData V2 (SAP Gateway): items in `d.results` (or a bare `d` array), `d.__next`,
    /// `__metadata.etag` and `__metadata.uri`.
    case odataV2 = "odata-v2"

    /// Whether this is one of the OData versions.
    public var isOData: Bool { self != .rest }
}
