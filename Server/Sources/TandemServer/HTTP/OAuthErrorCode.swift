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
        default: .badRequest
        }
    }
}
