/// A successful token response (RFC 6749 §5.1).
struct TokenResponse: Encodable, Sendable {
    /// The signed JWT.
    let accessToken: String
    /// Always `Bearer`.
    let tokenType = "Bearer"
    /// The access token's lifetime in seconds.
    let expiresIn: Int64
    /// The successor refresh token.
    let refreshToken: String
    /// The granted scope.
    let scope: String
    /// For a token exchange, the type of `access_token` (RFC 8693 §2.2.1); absent otherwise.
    var issuedTokenType: String? = nil

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case issuedTokenType = "issued_token_type"
    }
}
