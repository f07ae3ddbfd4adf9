import HTTPTypes

/// The error codes of RFC 6749 §5.2 the token endpoint answers with, and their HTTP status.
enum OAuthErrorCode: String, Sendable {
    /// A parameter is missing, repeated or malformed.
    case invalidRequest = "invalid_request"
    /// The client is unknown or not allowed here.
    case invalidClient = "invalid_client"
    /// The grant (here: the refresh token) is invalid, expired, revoked or for another client.
    case invalidGrant = "invalid_grant"
    /// The grant type is not supported.
    case unsupportedGrantType = "unsupported_grant_type"
    /// The client may not use this grant type.
    case unauthorizedClient = "unauthorized_client"
    /// The requested scope is unknown or broader than allowed.
    case invalidScope = "invalid_scope"
    /// The requested audience is not one this server issues tokens for (RFC 8693 §2.2.2).
    case invalidTarget = "invalid_target"
    /// Too many requests from this client; see `Retry-After`.
    case slowDown = "slow_down"
    /// The server failed; the client may retry.
    case serverError = "server_error"
    /// The server is temporarily unable to answer (its database is down).
    case temporarilyUnavailable = "temporarily_unavailable"

    /// The status RFC 6749 prescribes for the code.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidClient: .unauthorized
        case .serverError: .internalServerError
        case .temporarilyUnavailable: .serviceUnavailable
        case .slowDown: .tooManyRequests
        default: .badRequest
        }
    }
}
