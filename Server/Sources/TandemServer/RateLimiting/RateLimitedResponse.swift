import HTTPTypes
import Hummingbird

/// The sign-in pages' `429 Too Many Requests` answer with `Retry-After` (RFC 6585 §4): an HTML
/// page. The JSON endpoints throw ``HTTPError/tooManyRequests(retryAfter:)`` instead.
enum RateLimitedResponse {
    /// An HTML page for the sign-in form, from `pages`.
    static func html(retryAfterSeconds: Int, pages: WebPages) -> Response {
        var response = HTMLResponse.make(pages.signInError("Too many sign-in attempts. Try again in \(retryAfterSeconds) seconds."), status: .tooManyRequests)
        response.headers[.retryAfter] = String(retryAfterSeconds)
        return response
    }
}
