import Foundation

/// How the server authenticates to a customer's backend when it calls it for a user.
///
/// In a configuration: `{"mode":"user-token","audience":"https://erp.example.com"}`,
/// `{"mode":"technical-user","audience":"https://erp.example.com","userHeader":"Tandem-User"}`
/// (`userHeader` may be left out: `Tandem-User`) or `{"mode":"none"}`. A technical user's
/// password is never in the document: `tandem admin destination set-credential` stores it
/// sealed.
public enum BackendAuthentication: Sendable, Hashable, Codable {
    /// Each call carries a 5-minute token for the user, made for the backend's `audience`
    /// (principal propagation; the backend validates it with the server's JWKS).
    case userToken(audience: String)
    /// Each call carries the destination's technical user (HTTP Basic, its password stored
    /// sealed on the server) in `Authorization`, and the same 5-minute token for the user, made
    /// for `audience`, in the header `userHeader`: the backend trusts the technical user and
    /// learns from the signed header whom the call is for (it validates it with the server's JWKS).
    case technicalUser(audience: String, userHeader: String)
    /// No credential: public data, the same for every user.
    case none

    /// The header a technical user's calls name the user in, unless the document says another.
    public static let defaultUserHeader = "Tandem-User"
    /// The longest user header name accepted, in bytes.
    public static let maximumUserHeaderLength = 64
    /// Headers the user may not be named in: the server sets them itself, or a proxy would.
    static let reservedHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "host", "content-length", "content-type", "transfer-encoding",
        "connection", "if-match", "if-none-match", "idempotency-key", "accept", "forwarded", "x-forwarded-for", "x-forwarded-host",
    ]

    /// The audience the user's token is made for, nil for public data.
    public var audience: String? {
        switch self {
        case .userToken(let audience), .technicalUser(let audience, _): audience
        case .none: nil
        }
    }

    /// The longest audience accepted, in bytes.
    public static let maximumAudienceLength = 512

    private enum CodingKeys: String, CodingKey { case mode, audience, userHeader }
    private static let userTokenMode = "user-token"
    private static let technicalUserMode = "technical-user"
    private static let noneMode = "none"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .mode) {
        case Self.userTokenMode: self = .userToken(audience: try container.decode(String.self, forKey: .audience))
        case Self.technicalUserMode:
            self = .technicalUser(
                audience: try container.decode(String.self, forKey: .audience),
                userHeader: try container.decodeIfPresent(String.self, forKey: .userHeader) ?? Self.defaultUserHeader)
        case Self.noneMode: self = .none
        case let mode:
            throw DecodingError.dataCorruptedError(
                forKey: .mode, in: container, debugDescription: "mode \(mode.debugDescription) is not user-token, technical-user or none")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .userToken(let audience):
            try container.encode(Self.userTokenMode, forKey: .mode)
            try container.encode(audience, forKey: .audience)
        case .technicalUser(let audience, let userHeader):
            try container.encode(Self.technicalUserMode, forKey: .mode)
            try container.encode(audience, forKey: .audience)
            try container.encode(userHeader, forKey: .userHeader)
        case .none:
            try container.encode(Self.noneMode, forKey: .mode)
        }
    }

    /// Refuses an audience that is empty, longer than ``maximumAudienceLength`` bytes, or holds
    /// a space or a control character, and a user header that is not an HTTP field name (RFC
    /// 9110 §5.1), is longer than ``maximumUserHeaderLength`` or is one the server sets itself.
    func validate() throws(BackendDestinationError) {
        if case .technicalUser(_, let header) = self {
            let token = header.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)) }
            guard !header.isEmpty, header.utf8.count <= Self.maximumUserHeaderLength, token, !Self.reservedHeaders.contains(header.lowercased()) else {
                throw .invalidUserHeader(header)
            }
        }
        guard let audience else { return }
        guard !audience.isEmpty, audience.utf8.count <= Self.maximumAudienceLength,
            audience.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else {
            throw .invalidAudience
        }
    }
}
