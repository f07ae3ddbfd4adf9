import Foundation

/// The parts of the RFC 8414 authorization server metadata this client uses.
public struct OAuthServerMetadata: Decodable, Sendable, Equatable {
    /// The issuer URL.
    public var issuer: URL
    /// Where the user signs in (`/oauth/authorize`).
    public var authorizationEndpoint: URL?
    /// Where tokens are requested (`/oauth/token`).
    public var tokenEndpoint: URL
    /// RFC 7009 revocation, when offered.
    public var revocationEndpoint: URL?
    /// The grant types the token endpoint accepts.
    public var grantTypesSupported: [String]?
    /// The PKCE methods the server accepts.
    public var codeChallengeMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
    }

    /// The well-known path (RFC 8414 §3).
    public static let wellKnownPath = "/.well-known/oauth-authorization-server"
}
