import HTTPTypes

/// The `error` codes of the `/v1` endpoints' JSON error bodies, after RFC 6750 §3.1 for the
/// authorization failures, and their default HTTP status.
enum ResourceErrorCode: String, Sendable {
    /// A parameter or the body is missing, repeated or malformed.
    case invalidRequest = "invalid_request"
    /// The bearer token or API key is missing, malformed, expired, revoked or not valid here.
    case invalidToken = "invalid_token"
    /// The credential is valid but lacks the scope the endpoint requires.
    case insufficientScope = "insufficient_scope"
    /// The token is DPoP-bound and the request's proof is missing, wrong, replayed or made by
    /// another key (RFC 9449 §7.1).
    case invalidDPoPProof = "invalid_dpop_proof"
    /// The destination, entity set or app does not exist.
    case notFound = "not_found"
    /// The server is temporarily unable to answer (its database is down).
    case temporarilyUnavailable = "temporarily_unavailable"
    /// The client sent too many requests; it may retry after `Retry-After` seconds.
    case rateLimited = "rate_limited"
    /// The app has stored as much as its quota allows; retry once older data has expired.
    case quotaExceeded = "quota_exceeded"

    /// The status that goes with the code unless an endpoint says otherwise.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest: .badRequest
        case .invalidToken, .invalidDPoPProof: .unauthorized
        case .insufficientScope: .forbidden
        case .notFound: .notFound
        case .temporarilyUnavailable: .serviceUnavailable
        case .rateLimited, .quotaExceeded: .tooManyRequests
        }
    }
}
