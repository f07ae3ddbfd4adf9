import Foundation
import HTTPTypes
import Hummingbird
import TandemProtocol

/// `GET` and `POST /oauth/authorize`: the authorization code flow's front door (RFC 6749 §4.1
/// with PKCE S256).
///
/// - `GET` validates the request. A client or redirect URI that cannot be trusted gets an error
///   page, never a redirect; other errors go back to the redirect URI. With a live browser
///   session the user is sent straight back with a code; otherwise the sign-in form is shown,
///   with an anti-forgery token that is also set as a `SameSite=Strict` cookie.
/// - `POST` checks the anti-forgery token, validates the same request from hidden fields, checks
///   the password (rate-limited per client), starts a browser session (`tandem_session`,
///   `HttpOnly`, stored hashed) and redirects with a one-time code.
struct AuthorizeEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext
    /// Verifies passwords.
    let passwords: PasswordHasher

    /// A refused request and the page or redirect that tells the user or the client.
    struct Refusal: Error {
        let response: Response
    }

    static let sessionCookie = "tandem_session"
    static let formCookie = "tandem_form"

    /// Adds the routes to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/oauth/authorize") { request, _ in await show(request) }
        router.post("/oauth/authorize") { request, _ in await signIn(request) }
    }

    // MARK: - GET

    /// Validates the request and either redirects with a code (signed in) or shows the form.
    func show(_ request: Request) async -> Response {
        let parameters: [String: String]
        switch FormReader.parse(request.uri.query ?? "") {
        case .success(let form): parameters = form.fields
        case .failure(let failure): return HTMLResponse.make(LoginPage.error("The request is malformed: \(failure.message)."), status: .badRequest)
        }
        do {
            let app = try await registeredApp(parameters)
            let authorization: AuthorizationRequest
            switch validate(parameters, app: app) {
            case .success(let valid): authorization = valid
            case .failure(let refusal): return refusal.response
            }
            if let session = request.cookies[Self.sessionCookie]?.value,
               let userID = try await context.storage.browserSessionUser(hash: SecretToken.hash(session), now: .now()) {
                return try await redirectWithCode(userID: userID, authorization)
            }
            let formToken = SecretToken.generate(.loginForm)
            var response = HTMLResponse.make(LoginPage.form(appName: app?.name ?? authorization.clientID, parameters: parameters, formToken: formToken))
            response.setCookie(Cookie(
                name: Self.formCookie, value: formToken, path: "/oauth/authorize", secure: context.secureCookies, httpOnly: true, sameSite: .strict))
            return response
        } catch {
            return unavailable(error)
        }
    }

    // MARK: - POST

    /// Checks the form, the anti-forgery token and the password; starts a session and redirects.
    func signIn(_ request: Request) async -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return HTMLResponse.make(LoginPage.error("The form could not be read: \(failure.message)."), status: failure.status)
        }
        guard let cookieToken = request.cookies[Self.formCookie]?.value, let formToken = form["csrf_token"],
              ConstantTime.equals(cookieToken, formToken)
        else {
            return HTMLResponse.make(LoginPage.error("The sign-in form expired or did not come from this server. Start the sign-in again from the app."), status: .forbidden)
        }
        var parameters = form.fields
        for name in ["username", "password", "csrf_token"] { parameters[name] = nil }
        do {
            let app = try await registeredApp(parameters)
            let authorization: AuthorizationRequest
            switch validate(parameters, app: app) {
            case .success(let valid): authorization = valid
            case .failure(let refusal): return refusal.response
            }
            if case .limited(let seconds) = context.loginLimiter.acquire("login:" + authorization.clientID) {
                context.logger.notice("sign-in rate-limited", metadata: ["client_id": "\(authorization.clientID)"])
                return RateLimitedResponse.html(retryAfterSeconds: seconds)
            }
            let appName = app?.name ?? authorization.clientID
            guard let username = form["username"], let password = form["password"] else {
                return HTMLResponse.make(LoginPage.form(
                    appName: appName, parameters: parameters, formToken: formToken, username: form["username"] ?? "",
                    message: "Enter your username and password."), status: .badRequest)
            }
            guard let user = try await verify(username: username, password: password) else {
                context.logger.notice("sign-in failed", metadata: ["client_id": "\(authorization.clientID)"])
                return HTMLResponse.make(LoginPage.form(
                    appName: appName, parameters: parameters, formToken: formToken, username: username,
                    message: "The username or password is not correct."), status: .unauthorized)
            }
            let session = SecretToken.generate(.browserSession)
            let now = Timestamp.now()
            try await context.storage.createBrowserSession(
                hash: SecretToken.hash(session), userID: user.id, now: now, expiresAt: now.adding(context.browserSessionLifetime))
            context.logger.info("signed in", metadata: ["client_id": "\(authorization.clientID)", "user": "\(user.id)"])
            var response = try await redirectWithCode(userID: user.id, authorization)
            response.setCookie(Cookie(
                name: Self.sessionCookie, value: session, maxAge: Int(context.browserSessionLifetime.components.seconds),
                path: "/oauth", secure: context.secureCookies, httpOnly: true, sameSite: .lax))
            return response
        } catch {
            return unavailable(error)
        }
    }

    // MARK: - Helpers

    /// The app named by `client_id`, if there is one.
    private func registeredApp(_ parameters: [String: String]) async throws(StorageError) -> AppRecord? {
        guard let clientID = parameters["client_id"], !clientID.isEmpty else { return nil }
        return try await context.clients.app(clientID: clientID)
    }

    /// The user when the password matches; a missing user costs one hash too, so timing does
    /// not reveal which usernames exist.
    private func verify(username: String, password: String) async throws -> UserRecord? {
        let user = try await context.storage.user(named: username)
        let stored = user?.passwordHash ?? Self.decoyHash
        let hasher = passwords
        let matches = await Task.detached { (try? hasher.verify(password, against: stored)) ?? false }.value
        return matches ? user : nil
    }

    /// A valid hash of a random password, verified when the username is unknown.
    private static let decoyHash: String = (try? PasswordHasher().hash(SecretToken.generate(.loginForm))) ?? ""

    private func redirectWithCode(userID: String, _ authorization: AuthorizationRequest) async throws(TokenError) -> Response {
        let code = try await context.codes.issue(userID: userID, request: authorization, now: .now())
        context.logger.info("authorization code issued", metadata: ["client_id": "\(authorization.clientID)"])
        return HTMLResponse.redirect(to: AuthorizationRequest.redirectLocation(
            authorization.redirectURI, [("code", code), ("state", authorization.state)]))
    }

    /// Validates the request, turning a refusal into its error page or error redirect.
    private func validate(_ parameters: [String: String], app: AppRecord?) -> Result<AuthorizationRequest, Refusal> {
        do {
            return .success(try AuthorizationRequest.validate(parameters, app: app))
        } catch {
            return .failure(Refusal(response: refusal(error)))
        }
    }

    private func refusal(_ failure: AuthorizationRequest.Failure) -> Response {
        switch failure {
        case .cannotRedirect(let message):
            return HTMLResponse.make(LoginPage.error(message), status: .badRequest)
        case .redirect(let uri, let error, let description, let state):
            return HTMLResponse.redirect(to: AuthorizationRequest.redirectLocation(
                uri, [("error", error), ("error_description", description), ("state", state)]))
        }
    }

    private func unavailable(_ error: any Error) -> Response {
        context.logger.error("authorization request failed", metadata: ["error": "\(error)"])
        return HTMLResponse.make(LoginPage.error("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
    }
}

