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
    /// Redeems a cross-context SSO passcode from the desktop page's QR code or "Next" link
    /// (Tandem's extension grant, RFC 6749 §4.5): `sso_passcode`, `device_secret` (the same on
    /// every poll) and `device_label`; while the desktop has not approved, the answer is
    /// `authorization_pending` or `slow_down`, as in RFC 8628 §3.5.
    case ssoPasscode = "urn:tandem:params:oauth:grant-type:sso-passcode"
}
