import HTTPTypes
import Hummingbird
import TandemProtocol

extension HTTPError {
    /// The database (or another dependency) failed: `503 temporarily_unavailable`, so a client
    /// retries later. The same words on the OAuth and the `/v1` endpoints.
    static let unavailable = HTTPError(OAuthErrorCode.temporarilyUnavailable, "the server could not complete the request; retry later")

    /// `429` with `Retry-After` (RFC 6585 §4) for the OAuth endpoints' rate limits, coded
    /// `slow_down`.
    static func tooManyRequests(retryAfter seconds: Int) -> HTTPError {
        HTTPError(.slowDown, "too many requests; retry after \(seconds) s").retryAfter(seconds)
    }

    /// The challenge sent with a `401 invalid_client`.
    static let invalidClientChallenge = #"Basic realm="tandem""#

    /// The `invalid_client` answer of `/oauth/token` and `/oauth/revoke` (RFC 6749 §5.2) for
    /// `request`, whose client is unknown.
    ///
    /// Tandem's clients are public: they name themselves with `client_id` in the body and never
    /// authenticate with a header, so an unknown client gets `400`. A request that did try an
    /// `Authorization` header gets `401` with a `WWW-Authenticate` challenge, as §5.2 and
    /// RFC 9110 §11.6.1 require of every 401.
    static func invalidClient(for request: Request, _ description: String = "unknown client") -> HTTPError {
        guard request.headers[.authorization] != nil else {
            return HTTPError(.invalidClient, description, status: .badRequest)
        }
        return HTTPError(
            .invalidClient, description + "; clients are identified by client_id, not by an Authorization header", status: .unauthorized)
            .challenge(invalidClientChallenge)
    }
}
