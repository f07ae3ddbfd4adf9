/// The backend call that carries out one action (approve or reject) on an item, in the form its
/// protocol has:
///
/// - REST: a method and a path below the base URL with `{id}` for the item's id
///   (`{"method":"POST","path":"approvals/{id}/approve/"}`);
/// - OData V4: a bound action, posted to the item
///   (`{"boundAction":"com.example.Approve"}` → `POST ApprovalSet('A-1')/com.example.Approve`);
/// - OData V2: a function import, posted with the item's key as its parameter
///   (`{"functionImport":"ApproveRequest","parameter":"RequestID"}` → `POST ApproveRequest?RequestID='A-1'`).
public enum BackendActionCall: Sendable, Hashable, Codable {
    /// A REST call: `method` (`POST`, `PUT` or `PATCH`) to `path`, `{id}` replaced by the
    /// item's id, percent-encoded.
    case rest(method: BackendHTTPMethod, path: String)
    /// An OData V4 bound action's qualified name.
    case boundAction(String)
    /// An OData V2 function import and the name of its parameter that takes the item's key.
    case functionImport(name: String, parameter: String)

    private enum CodingKeys: String, CodingKey {
        case method, path, boundAction, functionImport, parameter
    }

    /// Decodes one of the three forms above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let action = try container.decodeIfPresent(String.self, forKey: .boundAction) {
            self = .boundAction(action)
        } else if let name = try container.decodeIfPresent(String.self, forKey: .functionImport) {
            self = .functionImport(name: name, parameter: try container.decode(String.self, forKey: .parameter))
        } else {
            self = .rest(method: try container.decode(BackendHTTPMethod.self, forKey: .method), path: try container.decode(String.self, forKey: .path))
        }
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .rest(let method, let path):
            try container.encode(method, forKey: .method)
            try container.encode(path, forKey: .path)
        case .boundAction(let name):
            try container.encode(name, forKey: .boundAction)
        case .functionImport(let name, let parameter):
            try container.encode(name, forKey: .functionImport)
            try container.encode(parameter, forKey: .parameter)
        }
    }

    /// The protocol this form belongs to.
    var protocolKinds: Set<BackendProtocolKind> {
        switch self {
        case .rest: [.rest]
        case .boundAction: [.odataV4]
        case .functionImport: [.odataV2]
        }
    }
}
