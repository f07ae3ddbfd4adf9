import Foundation
import HTTPTypes
import Hummingbird
import TandemProtocol

/// `GET` and `POST /oauth/authorize`: the authorization code flow's front door (RFC 6749 §4.1
/// with PKCE S256).
///
/// - `GET` validates the request. A client or redirect URI that cannot be trusted gets an error
///   page, never a redirect; other errors go back to the redirect URI. A live browser session
///   never yields a code by itself (RFC 8252 §8.6): the user confirms in one click on a page
///   whose token is bound to the session and to this request. Without a session, or with
///   `prompt=login`, the sign-in form is shown, with an anti-forgery token that is also set as a
///   `SameSite=Strict` cookie. `prompt=none` never shows a page: it answers `login_required` or
///   `interaction_required` by redirect.
/// - `POST` carries either the confirmation (``confirm(_:request:)``) or the password form
///   (``signIn(_:request:source:)``, limited per account and per source address).
struct AuthorizeEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext
    /// Verifies passwords and upgrades weak hashes.
    let passwords: PasswordVerifier

    /// A refused request and the page or redirect that tells the user or the client.
    struct Refusal: Error {
        let response: Response
    }

    static let sessionCookie = BrowserSignIn.sessionCookie
    static let formCookie = "tandem_form"

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/oauth/authorize") { request, _ in await show(request) }
        router.post("/oauth/authorize") { request, requestContext in await post(request, source: requestContext.sourceKey) }
    }

    // MARK: - GET

    /// Validates the request and shows the confirmation page (signed in) or the sign-in form.
    func show(_ request: Request) async -> Response {
        let parameters: [String: String]
        switch FormReader.parse(request.uri.query ?? "") {
        case .success(let form): parameters = form.fields
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The request is malformed: \(failure.message)."), status: .badRequest)
        }
        do {
            let (authorization, app): (AuthorizationRequest, AppRecord?)
            switch try await validate(parameters) {
            case .success(let valid): (authorization, app) = valid
            case .failure(let refusal): return refusal.response
            }
            let prompts = Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init))
            if prompts.contains("none"), prompts.count > 1 {
                return errorRedirect(authorization, "invalid_request", "prompt=none cannot be combined with other values")
            }
            let session = prompts.contains("login") ? nil : try await liveSession(request)
            if prompts.contains("none") {
                return session == nil
                    ? errorRedirect(authorization, "login_required", "the user is not signed in")
                    : errorRedirect(authorization, "interaction_required", "the user must confirm this app")
            }
            let appName = app?.name ?? authorization.clientID
            if let session, let user = try await context.accounts.user(id: session.userID) {
                let token = SessionConfirmation.token(session: session.secret, for: authorization)
                return HTMLResponse.make(context.pages.continuePage(
                    appName: appName, username: user.username, parameters: parameters, confirmToken: token))
            }
            let formToken = SecretToken.generate(.loginForm)
            var response = HTMLResponse.make(context.pages.signInForm(appName: appName, parameters: parameters, formToken: formToken))
            response.setCookie(Cookie(
                name: Self.formCookie, value: formToken, path: "/oauth/authorize", secure: context.secureCookies, httpOnly: true, sameSite: .strict))
            return response
        } catch {
            return unavailable(error)
        }
    }

    // MARK: - POST

    /// Reads the form and hands it to the confirmation or the password sign-in.
    func post(_ request: Request, source: String) async -> Response {
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let form) where form["confirm_token"] != nil: return await confirm(form, request: request)
        case .success(let form): return await signIn(form, request: request, source: source)
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
        }
    }

    // MARK: - Helpers

    /// The live session named by the request's cookie, if any.
    func liveSession(_ request: Request) async throws(StorageError) -> BrowserSignIn.Session? {
        try await BrowserSignIn(context: context, passwords: passwords).liveSession(request)
    }

    func redirectWithCode(userID: String, _ authorization: AuthorizationRequest) async throws(TokenError) -> Response {
        let code = try await context.codes.issue(userID: userID, request: authorization, now: Timestamp(context.clock.now))
        context.logger.info("authorization code issued", metadata: ["client_id": "\(authorization.clientID)"])
        return HTMLResponse.redirect(to: AuthorizationRequest.redirectLocation(
            authorization.redirectURI, [("code", code), ("state", authorization.state)]))
    }

    private func errorRedirect(_ authorization: AuthorizationRequest, _ error: String, _ description: String) -> Response {
        HTMLResponse.redirect(to: AuthorizationRequest.redirectLocation(
            authorization.redirectURI, [("error", error), ("error_description", description), ("state", authorization.state)]))
    }

    /// Looks up the app named by `client_id` and validates the request against it, turning a
    /// refusal into its error page or error redirect.
    func validate(_ parameters: [String: String]) async throws(StorageError) -> Result<(AuthorizationRequest, AppRecord?), Refusal> {
        var app: AppRecord?
        if let clientID = parameters["client_id"], !clientID.isEmpty { app = try await context.clients.app(clientID: clientID) }
        do {
            return .success((try AuthorizationRequest.validate(parameters, app: app), app))
        } catch {
            return .failure(Refusal(response: refusal(error)))
        }
    }

    private func refusal(_ failure: AuthorizationRequest.Failure) -> Response {
        switch failure {
        case .cannotRedirect(let message):
            return HTMLResponse.make(context.pages.signInError(message), status: .badRequest)
        case .redirect(let uri, let error, let description, let state):
            return HTMLResponse.redirect(to: AuthorizationRequest.redirectLocation(
                uri, [("error", error), ("error_description", description), ("state", state)]))
        }
    }

    func unavailable(_ error: any Error) -> Response {
        context.logger.error("authorization request failed", metadata: ["error": "\(error)"])
        return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
    }
}
