import Foundation
import HTTPTypes
import Hummingbird
import TandemProtocol

/// Every JSON endpoint's error answer: a status, a body `{"error": …, "error_description": …}`
/// (RFC 6749 §5.2, which the `/v1` endpoints share), `Cache-Control: no-store`, and the headers
/// the error calls for: a `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9110 §11.6.1) or
/// `Retry-After` (RFC 6585 §4).
///
/// Endpoints throw it; Hummingbird's router turns it into the response (``HTTPResponseError``),
/// so no endpoint builds an error response of its own.
///
/// ```swift
/// guard let token = form["token"] else { throw HTTPError(.invalidRequest, "token is required") }
/// ```
struct HTTPError: HTTPResponseError, Sendable {
    /// The `error` code.
    let code: String
    /// The `error_description`: what was wrong, for a developer; never a secret.
    let description: String
    /// The response status.
    let status: HTTPResponse.Status
    /// Headers beyond the JSON content type and no-store: a challenge, `Retry-After`.
    private(set) var headers: HTTPFields = [:]
    /// String members of the body beside `error` and `error_description`, such as the
    /// `current_etag` of a `412`.
    private(set) var members: [String: String] = [:]

    /// An OAuth error (RFC 6749 §5.2, RFC 8628 §3.5, RFC 8693), with `code`'s status unless
    /// `status` is given.
    init(_ code: OAuthErrorCode, _ description: String, status: HTTPResponse.Status? = nil) {
        self.code = code.rawValue
        self.description = description
        self.status = status ?? code.status
    }

    /// A `/v1` error, with `code`'s status unless `status` is given, and for 401 and 403 the
    /// `WWW-Authenticate` challenge.
    init(_ code: ResourceErrorCode, _ description: String, status: HTTPResponse.Status? = nil, challenge: String? = nil) {
        self.code = code.rawValue
        self.description = description
        self.status = status ?? code.status
        if let challenge { headers[.wwwAuthenticate] = challenge }
    }

    /// The same error with `Retry-After: seconds`.
    func retryAfter(_ seconds: Int) -> HTTPError {
        var error = self
        error.headers[.retryAfter] = String(seconds)
        return error
    }

    /// The same error with the header `name` set to `value`.
    func header(_ name: HTTPField.Name, _ value: String) -> HTTPError {
        var error = self
        error.headers[name] = value
        return error
    }

    /// The same error with the body member `name` set to `value` (never `error` or
    /// `error_description`, which are the error's own).
    func member(_ name: String, _ value: String) -> HTTPError {
        var error = self
        if name != OAuthErrorResponse.CodingKeys.error.rawValue, name != OAuthErrorResponse.CodingKeys.errorDescription.rawValue {
            error.members[name] = value
        }
        return error
    }

    /// The error a stored body (``bodyJSON``) and status stand for, to answer a request again as
    /// it was first answered; `nil` for a body that is not an error's.
    init?(replaying body: String, status: HTTPResponse.Status) {
        guard let object = try? JSONDecoder().decode([String: String].self, from: Data(body.utf8)),
              let code = object[OAuthErrorResponse.CodingKeys.error.rawValue]
        else { return nil }
        self.code = code
        description = object[OAuthErrorResponse.CodingKeys.errorDescription.rawValue] ?? ""
        self.status = status
        members = object.filter {
            $0.key != OAuthErrorResponse.CodingKeys.error.rawValue && $0.key != OAuthErrorResponse.CodingKeys.errorDescription.rawValue
        }
    }

    /// The same error with a `WWW-Authenticate` challenge.
    func challenge(_ challenge: String) -> HTTPError {
        var error = self
        error.headers[.wwwAuthenticate] = challenge
        return error
    }

    /// The JSON response (never cached: `Cache-Control: no-store`, `Pragma: no-cache`).
    var response: Response {
        var response = members.isEmpty
            ? JSONResponse.make(OAuthErrorResponse(error: code, errorDescription: description), status: status, noStore: true)
            : JSONResponse.raw(bodyJSON, status: status, noStore: true)
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    /// The body as JSON text, keys sorted: what ``response`` sends, and what an answer kept for
    /// a repeat (an idempotency key's) stores.
    var bodyJSON: String {
        var object = members
        object[OAuthErrorResponse.CodingKeys.error.rawValue] = code
        object[OAuthErrorResponse.CodingKeys.errorDescription.rawValue] = description
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The response Hummingbird sends when an endpoint throws this error.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}
