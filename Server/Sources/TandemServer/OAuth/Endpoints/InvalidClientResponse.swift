import HTTPTypes
import Hummingbird

/// The `invalid_client` answer of `/oauth/token` and `/oauth/revoke` (RFC 6749 §5.2).
///
/// Tandem's clients are public: they name themselves with `client_id` in the body and never
/// authenticate with a header, so an unknown client gets `400`. A request that did try an
/// `Authorization` header gets `401` with a `WWW-Authenticate` challenge, as §5.2 and
/// RFC 9110 §11.6.1 require of every 401.
enum InvalidClientResponse {
    /// The challenge sent with a 401.
    static let challenge = #"Basic realm="tandem""#

    /// The answer for `request`, whose client is unknown.
    static func make(for request: Request, _ description: String = "unknown client") -> Response {
        guard request.headers[.authorization] != nil else {
            return JSONResponse.oauthError(.invalidClient, description, status: .badRequest)
        }
        var response = JSONResponse.oauthError(
            .invalidClient, description + "; clients are identified by client_id, not by an Authorization header", status: .unauthorized)
        response.headers[.wwwAuthenticate] = challenge
        return response
    }
}
