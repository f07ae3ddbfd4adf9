/// One entity set of a backend destination: where it is read and how its page maps to rows.
///
/// ```json
/// {"name":"Approvals","path":"ApprovalSet","query":[{"name":"$filter","value":"Status eq 'Open'"}],
///  "mapping":{"protocolKind":"odata-v2","id":{"pointer":"/ApprovalID"},"title":{"pointer":"/Text"}}}
/// ```
public struct BackendEntitySet: Sendable, Hashable, Codable {
    /// The name widgets ask for (letters, digits, `.`, `_`, `-`).
    public var name: String
    /// The path below the destination's base URL: an OData entity set's name, or a REST path.
    public var path: String
    /// Parameters every request for this set carries (a document may leave them out: none).
    public var query: [BackendQueryItem]
    /// Where the items, fields, next page and ETags are in a page.
    public var mapping: EntitySetMapping
    /// How its items are decided from widgets; nil: they are only shown.
    public var actions: BackendItemActions?
    /// For a backend that cannot report its changes: every how many seconds the server reads
    /// the set again for each user whose widgets show it (``pollIntervals``), and pushes those
    /// whose page changed. Nil: the backend reports its changes, or nobody is pushed.
    public var pollEverySeconds: Int?

    /// The intervals a set may be polled at: a minute to a day.
    public static let pollIntervals = 60...86_400

    /// An entity set.
    public init(
        name: String, path: String, query: [BackendQueryItem] = [], mapping: EntitySetMapping, actions: BackendItemActions? = nil,
        pollEverySeconds: Int? = nil
    ) {
        self.name = name
        self.path = path
        self.query = query
        self.mapping = mapping
        self.actions = actions
        self.pollEverySeconds = pollEverySeconds
    }

    private enum CodingKeys: String, CodingKey {
        case name, path, query, mapping, actions, pollEverySeconds
    }

    /// Reads a set from its document; `query` may be left out (no parameters).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent([BackendQueryItem].self, forKey: .query) ?? []
        mapping = try container.decode(EntitySetMapping.self, forKey: .mapping)
        actions = try container.decodeIfPresent(BackendItemActions.self, forKey: .actions)
        pollEverySeconds = try container.decodeIfPresent(Int.self, forKey: .pollEverySeconds)
    }
}
