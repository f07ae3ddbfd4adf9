/// How a REST backend says where its next page is. (OData backends always say it in the page.)
public enum RestPaging: Sendable, Hashable, Codable {
    /// The RFC 8288 `Link` response header's `rel="next"` target.
    case linkHeader
    /// An opaque cursor at this pointer in the page's body (`""` or null: last page).
    case cursor(JSONPointer)
    /// The next page's URL at this pointer in the page's body, as Django REST Framework's `next`
    /// (`""` or null: last page).
    case nextURL(JSONPointer)

    private enum CodingKeys: String, CodingKey {
        case kind, pointer
    }

    private enum Kind: String, Codable {
        case linkHeader, cursor, nextURL
    }

    /// Decodes `{"kind":"linkHeader"}`, `{"kind":"cursor","pointer":"/meta/next"}` or
    /// `{"kind":"nextURL","pointer":"/next"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .linkHeader: self = .linkHeader
        case .cursor: self = .cursor(try container.decode(JSONPointer.self, forKey: .pointer))
        case .nextURL: self = .nextURL(try container.decode(JSONPointer.self, forKey: .pointer))
        }
    }

    /// Encodes the form `init(from:)` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .linkHeader:
            try container.encode(Kind.linkHeader, forKey: .kind)
        case .cursor(let pointer):
            try container.encode(Kind.cursor, forKey: .kind)
            try container.encode(pointer, forKey: .pointer)
        case .nextURL(let pointer):
            try container.encode(Kind.nextURL, forKey: .kind)
            try container.encode(pointer, forKey: .pointer)
        }
    }
}
