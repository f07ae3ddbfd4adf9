import Foundation
import TandemProtocol

/// A validated authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636): the client exists,
/// is an OAuth client, and the redirect URI is one of its registered URIs, character for character.
struct AuthorizationRequest: Sendable, Equatable {
    /// The client.
    var clientID: String
    /// The registered redirect URI the response goes to.
    var redirectURI: String
    /// The scope requested (`OAuthScope/userDefault` when none was named).
    var scope: String
    /// The client's opaque state, returned unchanged.
    var state: String?
    /// The S256 PKCE challenge.
    var codeChallenge: String

    /// The parameter names an authorization request carries (echoed as hidden form fields).
    static let parameterNames = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"]

    /// Why a request was refused.
    enum Failure: Error, Sendable, Equatable {
        /// The client or redirect URI cannot be trusted: show an error page, never redirect.
        case cannotRedirect(String)
        /// Tell the client through its redirect URI (RFC 6749 §4.1.2.1).
        case redirect(to: String, error: String, description: String, state: String?)
    }

    /// Validates the parameters of a request.
    ///
    /// - Parameters:
    ///   - parameters: The request's parameters (query or form), each at most once.
    ///   - app: The app registered under `client_id`, or `nil` when there is none.
    static func validate(_ parameters: [String: String], app: AppRecord?) throws(Failure) -> AuthorizationRequest {
        func value(_ name: String) -> String? { parameters[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let clientID = value("client_id") else { throw .cannotRedirect("The request names no client (client_id is missing).") }
        guard let app, app.clientID == clientID else { throw .cannotRedirect("The client is not registered with this server.") }
        guard let redirectURI = value("redirect_uri") else { throw .cannotRedirect("The request has no redirect_uri.") }
        guard app.redirectURIs.contains(redirectURI) else {
            throw .cannotRedirect("The redirect_uri is not registered for this client.")
        }
        let state = value("state")
        func refuse(_ error: String, _ description: String) -> Failure {
            .redirect(to: redirectURI, error: error, description: description, state: state)
        }
        guard app.securityMode == .oauth else {
            throw refuse("unauthorized_client", "this client authenticates with an API key, not OAuth")
        }
        guard value("response_type") == "code" else {
            throw refuse("unsupported_response_type", "only response_type=code is supported")
        }
        guard let challenge = value("code_challenge") else {
            throw refuse("invalid_request", "PKCE is required: send code_challenge and code_challenge_method=S256")
        }
        guard value("code_challenge_method") == PKCE.method else {
            throw refuse("invalid_request", "only code_challenge_method=S256 is supported")
        }
        guard PKCE.isValidChallenge(challenge) else {
            throw refuse("invalid_request", "code_challenge is not a base64url SHA-256 value")
        }
        let scope = value("scope") ?? OAuthScope.userDefault
        let requested = OAuthScope.parse(scope)
        guard !requested.isEmpty, requested.isSubset(of: OAuthScope.parse(OAuthScope.userGrantable)) else {
            throw refuse("invalid_scope", "the scope may contain only: \(OAuthScope.userGrantable)")
        }
        return AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, scope: requested.sorted().joined(separator: " "),
            state: state, codeChallenge: challenge)
    }

    /// The redirect URI with `parameters` added to its query.
    static func redirectLocation(_ redirectURI: String, _ parameters: [(String, String?)]) -> String {
        let query = FormEncoding.query(parameters)
        let separator = redirectURI.contains("?") ? "&" : "?"
        return redirectURI + separator + query
    }
}
