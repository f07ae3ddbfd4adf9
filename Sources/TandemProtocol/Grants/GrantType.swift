/// The `grant_type` values of a Tandem token endpoint, in the order the server advertises them.
///
/// ```swift
/// form.append(("grant_type", GrantType.tokenExchange.rawValue))
/// ```
public enum GrantType: String, Sendable, CaseIterable {
    /// Redeems an authorization code with its PKCE verifier (RFC 6749 §4.1.3).
    case authorizationCode = "authorization_code"
    /// Redeems a refresh token for new tokens; the server rotates it (RFC 6749 §6).
    case refreshToken = "refresh_token"
    /// Exchanges the user's access token for a scoped extension grant (RFC 8693 §2.1).
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
}
