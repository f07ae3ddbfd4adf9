#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// Everything that can go wrong in the auth client, each case saying what the caller can do.
///
/// ```swift
/// do {
///     let token = try await coordinator.validAccessToken()
/// } catch .reauthenticationRequired {
///     showSignIn()                       // the grant is gone: refresh will never work again
/// } catch .rateLimited(let retryAfter) {
///     retry(after: retryAfter ?? 30)
/// } catch {
///     showError(error)
/// }
/// ```
public enum AuthError: Error, Sendable, Equatable {
    /// No answer from the server (no connection, timeout, TLS failure); retry later.
    case transport(String)
    /// The server answered with an error status; `code` and `description` are the RFC 6749 §5.2
    /// `error` and `error_description` when the body had them.
    case server(status: Int, code: String?, description: String?)
    /// The grant is gone (`invalid_grant`: revoked, expired, reused): the user must sign in
    /// again. Stored tokens have been cleared.
    case reauthenticationRequired
    /// Nobody is signed in: there are no tokens to use or refresh.
    case notSignedIn
    /// The server asked to slow down (429); retry after this many seconds when it said.
    case rateLimited(retryAfter: TimeInterval?)
    /// The redirect's `state` is not the one this client sent: the redirect is not the answer to
    /// our request (possibly forged) and is ignored.
    case stateMismatch
    /// The authorization server redirected back with `error` (such as `access_denied`).
    case authorizationFailed(code: String, description: String?)
    /// The redirect URL is not an answer to our request (another URI, no `code`).
    case invalidRedirect(String)
    /// A 2xx answer whose body is not what the protocol says (not JSON, a field missing).
    case malformedResponse(String)
    /// A configuration (JSON, link or server document) is malformed or incomplete.
    case invalidConfiguration(String)
    /// A configuration (typically from a `config=` link) names a server this app was not built
    /// for: refuse it and keep the current server.
    case serverNotAllowed(String)
    /// The server's metadata names another issuer than the one asked about (RFC 8414 §3.3):
    /// the answer is not from that server's authorization server; do not sign in there.
    case issuerMismatch(expected: String, actual: String)
    /// The server does not offer what this client needs (no S256 PKCE, no revocation endpoint).
    case unsupportedServer(String)
    /// The token store failed to read or write (vault locked, container not writable).
    case storage(String)
    /// Another process held the refresh lease for longer than it may; try again later.
    case refreshTimedOut
    /// The grant's DPoP key cannot be read, made or stored (the reason says which).
    case dpopKey(String)
    /// The user's step-up key cannot sign (the user cancelled Face ID, the key is gone); the
    /// reason says which.
    case stepUpKey(String)
    /// The task was cancelled while it waited.
    case cancelled
}

extension AuthError: CustomStringConvertible {
    /// What went wrong, in words fit for a log; never a token or key.
    public var description: String {
        switch self {
        case .transport(let reason): "no answer from the server: \(reason)"
        case .server(let status, let code, let description):
            "the server answered \(status)" + (code.map { " \($0)" } ?? "") + (description.map { ": \($0)" } ?? "")
        case .reauthenticationRequired: "the grant is no longer valid; sign in again"
        case .notSignedIn: "nobody is signed in"
        case .rateLimited(let retryAfter):
            "rate limited by the server" + (retryAfter.map { "; retry after \(Int($0)) s" } ?? "")
        case .stateMismatch: "the redirect's state does not match the request's"
        case .authorizationFailed(let code, let description):
            "authorization failed: \(code)" + (description.map { " (\($0))" } ?? "")
        case .invalidRedirect(let reason): "not a valid authorization redirect: \(reason)"
        case .malformedResponse(let reason): "malformed server response: \(reason)"
        case .invalidConfiguration(let reason): "invalid client configuration: \(reason)"
        case .serverNotAllowed(let reason): "server not allowed: \(reason)"
        case .issuerMismatch(let expected, let actual): "the metadata's issuer \(actual) is not the server asked, \(expected)"
        case .unsupportedServer(let reason): "the server does not support \(reason)"
        case .storage(let reason): "token storage failed: \(reason)"
        case .refreshTimedOut: "another process is holding the token refresh; try again later"
        case .dpopKey(let reason): reason
        case .stepUpKey(let reason): reason
        case .cancelled: "cancelled"
        }
    }
}

extension AuthError {
    /// The typed error for a non-2xx `response` of an OAuth or `/v1` endpoint (an
    /// `OAuthErrorResponse` body): `invalid_grant` is ``reauthenticationRequired``, 429 is
    /// ``rateLimited(retryAfter:)``.
    public init(response: HTTPResponse) {
        let body = try? JSONDecoder().decode(OAuthErrorResponse.self, from: response.body)
        if response.status == 429 {
            self = .rateLimited(retryAfter: response.headers["Retry-After"].flatMap { TimeInterval($0) })
        } else if body?.code == .invalidGrant {
            self = .reauthenticationRequired
        } else {
            self = .server(status: response.status, code: body?.error, description: body?.errorDescription)
        }
    }
}
