/// How the server authenticates to a customer's backend when it calls it for a user.
///
/// In a configuration: `{"mode":"user-token","audience":"https://erp.example.com"}` or
/// `{"mode":"none"}`.
public enum BackendAuthentication: Sendable, Hashable, Codable {
    /// Each call carries a 5-minute token for the user, made for the backend's `audience`
    /// (principal propagation; the backend validates it with the server's JWKS).
    case userToken(audience: String)
    /// No credential: public data, the same for every user.
    case none

    /// The longest audience accepted, in bytes.
    public static let maximumAudienceLength = 512

    private enum CodingKeys: String, CodingKey { case mode, audience }
    private static let userTokenMode = "user-token"
    private static let noneMode = "none"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .mode) {
        case Self.userTokenMode: self = .userToken(audience: try container.decode(String.self, forKey: .audience))
        case Self.noneMode: self = .none
        case let mode:
            throw DecodingError.dataCorruptedError(
                forKey: .mode, in: container, debugDescription: "mode \(mode.debugDescription) is not user-token or none")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .userToken(let audience):
            try container.encode(Self.userTokenMode, forKey: .mode)
            try container.encode(audience, forKey: .audience)
        case .none:
            try container.encode(Self.noneMode, forKey: .mode)
        }
    }

    /// Refuses an audience that is empty, longer than ``maximumAudienceLength`` bytes, or holds
    /// a space or a control character.
    func validate() throws(BackendDestinationError) {
        guard case .userToken(let audience) = self else { return }
        guard !audience.isEmpty, audience.utf8.count <= Self.maximumAudienceLength,
            audience.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else {
            throw .invalidAudience
        }
    }
}
