/// The JSON body of a successful token endpoint answer (RFC 6749 §5.1; RFC 8693 §2.2.1 for a
/// token exchange): the server encodes it, the client decodes it, both with these field names.
///
/// ```swift
/// let response = try JSONDecoder().decode(TokenResponse.self, from: body)
/// let expiry = now.addingTimeInterval(TimeInterval(response.expiresIn))
/// ```
public struct TokenResponse: Codable, Sendable, Equatable {
    /// The access token (a signed JWT from a Tandem server).
    public var accessToken: String
    /// How to present the access token; `Bearer` from a Tandem server.
    public var tokenType: String
    /// The access token's lifetime in seconds.
    public var expiresIn: Int64
    /// The successor refresh token; absent when the server keeps the previous one (§6).
    public var refreshToken: String?
    /// The granted scope, space-separated.
    public var scope: String?
    /// For a token exchange, the ``TokenTypeIdentifier`` of `access_token`; absent otherwise.
    public var issuedTokenType: String?
    /// For the SSO passcode grant, the account the tokens act for (its user name): the phone
    /// asks "Sign in as ‹account›?" before it keeps them, so a link someone else made cannot
    /// onboard the app into their account unnoticed. Absent otherwise.
    public var account: String?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - tokenType: How to present it; `Bearer` unless said otherwise.
    ///   - expiresIn: Its lifetime in seconds.
    ///   - refreshToken: The successor refresh token, if any.
    ///   - scope: The granted scope, if the answer names it.
    ///   - issuedTokenType: For a token exchange, the type of `accessToken`.
    ///   - account: For the SSO passcode grant, the account's user name.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int64, refreshToken: String? = nil,
        scope: String? = nil, issuedTokenType: String? = nil, account: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
        self.issuedTokenType = issuedTokenType
        self.account = account
    }

    /// The JSON field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        /// `access_token`
        case accessToken = "access_token"
        /// `token_type`
        case tokenType = "token_type"
        /// `expires_in`
        case expiresIn = "expires_in"
        /// `refresh_token`
        case refreshToken = "refresh_token"
        /// `scope`
        case scope
        /// `issued_token_type`
        case issuedTokenType = "issued_token_type"
        /// `account`
        case account
    }
}
