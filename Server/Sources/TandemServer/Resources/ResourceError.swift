import HTTPTypes
import Hummingbird
import TandemProtocol

/// A `/v1` request that ends in an error: a JSON body `{"error": …, "error_description": …}`,
/// its status, and for authorization failures a `WWW-Authenticate` challenge (RFC 6750 §3).
struct ResourceError: Error, Sendable {
    /// The `error` code.
    let code: ResourceErrorCode
    /// The `error_description`: what was wrong, for a developer; never a secret.
    let description: String
    /// The response status.
    let status: HTTPResponse.Status
    /// The `WWW-Authenticate` challenge, for 401 and 403.
    let challenge: String?

    /// An error with `code`'s status unless `status` is given.
    init(_ code: ResourceErrorCode, _ description: String, status: HTTPResponse.Status? = nil, challenge: String? = nil) {
        self.code = code
        self.description = description
        self.status = status ?? code.status
        self.challenge = challenge
    }

    /// The error for a refused credential: 401 `invalid_token`, 403 `insufficient_scope` or 503.
    init(_ failure: AuthorizationFailure) {
        switch failure {
        case .missingCredential:
            // RFC 6750 §3.1: a request without credentials gets the challenge without an error code.
            self.init(.invalidToken, failure.description, challenge: #"Bearer realm="tandem""#)
        case .invalidToken, .invalidAPIKey:
            let message = failure.description
            self.init(.invalidToken, message, challenge: #"Bearer realm="tandem", error="invalid_token", error_description="\#(message)""#)
        case .insufficientScope(let scope):
            self.init(.insufficientScope, failure.description, challenge: #"Bearer realm="tandem", error="insufficient_scope", scope="\#(scope)""#)
        case .unavailable:
            self.init(.temporarilyUnavailable, "the server could not complete the request; retry later")
        }
    }

    /// The database failed: 503, so a client retries later.
    static let unavailable = ResourceError(.temporarilyUnavailable, "the server could not complete the request; retry later")

    /// Runs `body` and answers with what it returns, or with the error it throws.
    static func catching(_ body: () async throws(ResourceError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return error.response
        }
    }

    /// The JSON response (never cached: `Cache-Control: no-store`).
    var response: Response {
        var response = JSONResponse.make(OAuthErrorResponse(error: code.rawValue, errorDescription: description), status: status, noStore: true)
        if let challenge { response.headers[.wwwAuthenticate] = challenge }
        return response
    }
}
