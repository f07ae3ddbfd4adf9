/// The token type identifiers of RFC 8693 §3, as a token exchange names its subject token,
/// requested token and issued token.
///
/// ```swift
/// form.append(("subject_token_type", TokenTypeIdentifier.accessToken.rawValue))
/// ```
public enum TokenTypeIdentifier: String, Sendable, CaseIterable {
    /// An OAuth 2 access token.
    case accessToken = "urn:ietf:params:oauth:token-type:access_token"
    /// An OAuth 2 refresh token.
    case refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
}
