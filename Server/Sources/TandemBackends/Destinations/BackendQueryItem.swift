/// One query parameter an entity set's request always carries: OData's `$select`, `$filter`,
/// `$orderby` or `$expand`, or any parameter of a REST path.
public struct BackendQueryItem: Sendable, Hashable, Codable {
    /// The parameter's name, such as `$filter`.
    public var name: String
    /// Its value, unencoded: `Status eq 'Open'`.
    public var value: String

    /// A query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The system query options an OData entity set may set (paging is the server's).
    public static let odataOptions: Set<String> = ["$select", "$filter", "$orderby", "$expand"]
}
