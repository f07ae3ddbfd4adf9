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
            let failures = try await context.signIns.signInFailures(clientID: clientID, username: username)
            if let seconds = context.signInThrottle.retryAfterSeconds(failures, now: .now()) {
                context.logger.notice("sign-in delayed after failures", metadata: ["client_id": "\(clientID)"])
                return RateLimitedResponse.html(retryAfterSeconds: seconds, pages: context.pages)
            }
            if case .limited(let seconds) = context.loginLimiter.acquire("login:" + source) {
                context.logger.notice("sign-in rate-limited", metadata: ["client_id": "\(clientID)", "source": "\(source)"])
                return RateLimitedResponse.html(retryAfterSeconds: seconds, pages: context.pages)
            }
            guard let user = try await passwords.verify(
                username: username, password: password, storage: context.storage, signIns: context.signIns, logger: context.logger)
            else {
                try await context.signIns.recordSignInFailure(clientID: clientID, username: username, now: .now())
                context.logger.notice("sign-in failed", metadata: ["client_id": "\(clientID)"])
                return HTMLResponse.make(context.pages.signInForm(
                    appName: appName, parameters: parameters, formToken: formToken, username: username,
                    message: "The username or password is not correct."), status: .unauthorized)
            }
            if failures != nil { try await context.signIns.clearSignInFailures(clientID: clientID, username: username) }
            let session = SecretToken.generate(.browserSession)
            let now = Timestamp.now()
            try await context.storage.createBrowserSession(
                hash: SecretToken.hash(session), userID: user.id, now: now, expiresAt: now.adding(context.browserSessionLifetime))
            try await context.signIns.recordConfirmedClient(sessionHash: SecretToken.hash(session), clientID: clientID, now: now)
            context.logger.info("signed in", metadata: ["client_id": "\(clientID)", "user": "\(user.id)"])
            var response = try await redirectWithCode(userID: user.id, authorization)
            response.setCookie(Cookie(
                name: Self.sessionCookie, value: session, maxAge: Int(context.browserSessionLifetime.components.seconds),
                path: "/oauth", secure: context.secureCookies, httpOnly: true, sameSite: .lax))
            return response
        } catch {
            return unavailable(error)
        }
    }
}
