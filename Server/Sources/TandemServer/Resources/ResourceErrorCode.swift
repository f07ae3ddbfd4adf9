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
    /// An action's `If-Match` is not the item's current ETag: the item changed since it was
    /// shown (`412`; the body's `current_etag` and the `ETag` header name the current one).
    case preconditionFailed = "precondition_failed"
    /// An action came without `If-Match` (`428`, RFC 6585 §3).
    case preconditionRequired = "precondition_required"
    /// The item was already decided: its status is no longer `pending` (`409`).
    case alreadyDecided = "already_decided"
    /// The idempotency key was already used for a different request (`422`).
    case idempotencyKeyReused = "idempotency_key_reused"
    /// The action needs the user present: a valid step-up proof (`401`, RFC 9470).
    case insufficientUserAuthentication = "insufficient_user_authentication"
    /// A different step-up key is already registered for this sign-in (`409`).
    case stepUpKeyConflict = "step_up_key_conflict"
    /// The credential is valid, but the data's own rules refuse: the app may not act on this
    /// entity set, or the user may not decide this item (not an approver, or its requester) (`403`).
    case notPermitted = "not_permitted"
    /// A customer's backend did not accept the user's identity (it answered `401`): the widget
    /// asks the user to sign in again (`403` here, so that no client refreshes and retries a
    /// token that is fine at this server).
    case backendUnauthorized = "backend_unauthorized"
    /// A customer's backend does not let this user read or do this (it answered `403`) (`403`).
    case backendForbidden = "backend_forbidden"
    /// A customer's backend could not be reached, failed or is resting after failures, and no
    /// earlier page of this user's is kept to show instead (`503`, with `Retry-After` when known).
    case backendUnavailable = "backend_unavailable"
    /// A customer's backend answered something its destination's configuration cannot read (an
    /// unexpected status, or a page its mapping refuses) (`502`).
    case backendError = "backend_error"

    /// The status that goes with the code unless an endpoint says otherwise.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest: .badRequest
        case .invalidToken, .invalidDPoPProof: .unauthorized
        case .insufficientScope, .notPermitted, .backendUnauthorized, .backendForbidden: .forbidden
        case .notFound: .notFound
        case .temporarilyUnavailable, .backendUnavailable: .serviceUnavailable
        case .backendError: .badGateway
        case .rateLimited, .quotaExceeded: .tooManyRequests
        case .preconditionFailed: .preconditionFailed
        case .preconditionRequired: .preconditionRequired
        case .alreadyDecided, .stepUpKeyConflict: .conflict
        case .idempotencyKeyReused: .unprocessableContent
        case .insufficientUserAuthentication: .unauthorized
        }
    }
}
