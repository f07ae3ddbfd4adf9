/// The error codes of RFC 6749 §5.2 (with RFC 8693 §2.2.2, RFC 8628 §3.5 and RFC 9449) that a Tandem token endpoint answers
/// with and a client acts on.
///
/// ```swift
/// if OAuthErrorResponse(body)?.code == .invalidGrant { signOut() }
/// ```
public enum OAuthErrorCode: String, Sendable, CaseIterable {
    /// A parameter is missing, repeated or malformed.
    case invalidRequest = "invalid_request"
    /// The client is unknown or not allowed here.
    case invalidClient = "invalid_client"
    /// The grant (refresh token, authorization code) is invalid, expired, revoked or for another
    /// client: the client must sign the user in again.
    case invalidGrant = "invalid_grant"
    /// The grant type is not supported.
    case unsupportedGrantType = "unsupported_grant_type"
    /// The client may not use this grant type.
    case unauthorizedClient = "unauthorized_client"
    /// The requested scope is unknown or broader than allowed.
    case invalidScope = "invalid_scope"
    /// The requested audience is not one the server issues tokens for (RFC 8693 §2.2.2).
    case invalidTarget = "invalid_target"
    /// Too many requests from this client; retry after the `Retry-After` header's seconds.
    case slowDown = "slow_down"
    /// The server failed; the client may retry.
    case serverError = "server_error"
    /// The server is temporarily unable to answer; the client may retry later.
    case temporarilyUnavailable = "temporarily_unavailable"
    /// The user has not approved yet: poll again after the interval (RFC 8628 §3.5).
    case authorizationPending = "authorization_pending"
    /// The user denied the request (RFC 8628 §3.5).
    case accessDenied = "access_denied"
    /// The approval window ended before the user decided: start again (RFC 8628 §3.5).
    case expiredToken = "expired_token"
    /// The request's DPoP proof is missing, malformed, replayed or made with another key than
    /// the grant's (RFC 9449 §5, §7.1).
    case invalidDPoPProof = "invalid_dpop_proof"
    /// Send the proof again with the nonce in the `DPoP-Nonce` header (RFC 9449 §8).
    case useDPoPNonce = "use_dpop_nonce"
}
