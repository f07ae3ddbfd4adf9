import Hummingbird
import TandemProtocol

extension AuthorizeEndpoint {
    /// The password form: checks the anti-forgery token, the account's delay, the source's rate
    /// and the password; starts a session and redirects with a code.
    ///
    /// An account whose failures owe a delay is refused before any hash is computed, and without
    /// spending the source's budget, so guessing one account never slows another user's sign-in.
    func signIn(_ form: FormBody, request: Request, source: String) async -> Response {
        guard let cookieToken = request.cookies[Self.formCookie]?.value, let formToken = form["csrf_token"],
              ConstantTime.equals(cookieToken, formToken)
        else {
            return HTMLResponse.make(context.pages.signInError("The sign-in form expired or did not come from this server. Start the sign-in again from the app."), status: .forbidden)
        }
        var parameters = form.fields
        for name in ["username", "password", "csrf_token"] { parameters[name] = nil }
        do {
            let (authorization, app): (AuthorizationRequest, AppRecord?)
            switch try await validate(parameters) {
            case .success(let valid): (authorization, app) = valid
            case .failure(let refusal): return refusal.response
            }
            let appName = app?.name ?? authorization.clientID
            guard let username = form["username"], let password = form["password"] else {
                return HTMLResponse.make(context.pages.signInForm(
                    appName: appName, parameters: parameters, formToken: formToken, username: form["username"] ?? "",
                    message: "Enter your username and password."), status: .badRequest)
            }
            let clientID = authorization.clientID
            let signIn = BrowserSignIn(context: context, passwords: passwords)
            switch try await signIn.attempt(username: username, password: password, throttleKey: clientID, source: source) {
            case .throttled(let seconds):
                return RateLimitedResponse.html(retryAfterSeconds: seconds, pages: context.pages)
            case .refused:
                return HTMLResponse.make(context.pages.signInForm(
                    appName: appName, parameters: parameters, formToken: formToken, username: username,
                    message: "The username or password is not correct."), status: .unauthorized)
            case .signedIn(let user, let session):
                try await context.browserSessions.recordConfirmedClient(sessionHash: SecretToken.hash(session), clientID: clientID, now: Timestamp(context.clock.now))
                var response = try await redirectWithCode(userID: user.id, authorization)
                response.setCookie(signIn.cookie(session))
                return response
            }
        } catch {
            return unavailable(error)
        }
    }
}
