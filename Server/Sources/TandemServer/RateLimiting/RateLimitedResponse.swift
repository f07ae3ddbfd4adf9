import HTTPTypes
import Hummingbird

/// The `429 Too Many Requests` answer with `Retry-After` (RFC 6585 §4).
enum RateLimitedResponse {
    /// A JSON error body for API endpoints.
    static func json(retryAfterSeconds: Int) -> Response {
        var response = JSONResponse.oauthError(.slowDown, "too many requests; retry after \(retryAfterSeconds) s")
        response.headers[.retryAfter] = String(retryAfterSeconds)
        return response
    }

    /// An HTML page for the sign-in form, from `pages`.
    static func html(retryAfterSeconds: Int, pages: WebPages) -> Response {
        var response = HTMLResponse.make(pages.signInError("Too many sign-in attempts. Try again in \(retryAfterSeconds) seconds."), status: .tooManyRequests)
        response.headers[.retryAfter] = String(retryAfterSeconds)
        return response
    }
}
