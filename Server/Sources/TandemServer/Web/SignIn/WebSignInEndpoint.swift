import Hummingbird
import TandemProtocol

/// `GET` and `POST /signin?next=…`: the site's own sign-in, for the pages a signed-in browser
/// uses (the SSO onboarding page, the cockpit). Same defences as the app sign-in (anti-forgery
/// token in a `SameSite=Strict` cookie, the account's delay, the source's rate); `next` must be
/// one of the site's own pages, so the form can never send a browser elsewhere.
///
/// `POST /signout` ends the browser's session: its row is deleted (a copied cookie is refused
/// from then on) and the cookie cleared. The form carries a token bound to the session
/// (``signOutPurpose``), so another site cannot sign a user out.
struct WebSignInEndpoint: Sendable {
    static let formCookie = "tandem_web_form"
    /// Failures on these pages count towards their own delay, apart from any app's.
    static let throttleKey = "tandem.web"
    /// The purpose of the sign-out form's ``SessionPageToken``.
    static let signOutPurpose = "signout"

    let context: OAuthEndpointContext
    let passwords: PasswordVerifier

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/signin") { request, _ in show(next: Self.safeNext(request.uri.queryParameters["next"].map(String.init))) }
        router.post("/signin") { request, requestContext in await post(request, source: requestContext.sourceKey) }
        router.post("/signout") { request, _ in await signOut(request) }
    }

    /// `next` if it is one of the pages that need a session, else the user's own page.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/sso/") || next == "/admin" || next.hasPrefix("/admin/") || next == "/account",
              !next.contains("//"), !next.contains("\\"), next.utf8.count <= 200
        else { return "/account" }
        return next
    }

    private func show(next: String, status: HTTPResponse.Status = .ok, username: String = "", message: String? = nil) -> Response {
        let formToken = SecretToken.generate(.loginForm)
        var response = HTMLResponse.make(
            context.pages.webSignInForm(next: next, formToken: formToken, username: username, message: message), status: status)
        response.setCookie(Cookie(
            name: Self.formCookie, value: formToken, path: "/signin", secure: context.secureCookies, httpOnly: true, sameSite: .strict))
        return response
    }

    private func signOut(_ request: Request) async -> Response {
        let signIn = BrowserSignIn(context: context, passwords: passwords)
        do {
            if let session = try await signIn.liveSession(request) {
                let form: FormBody
                switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
                case .success(let parsed): form = parsed
                case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
                }
                guard SessionPageToken.isValid(form["signout_token"], session: session.secret, purpose: Self.signOutPurpose) else {
                    return HTMLResponse.make(context.pages.signInError("The form did not come from this server."), status: .forbidden)
                }
                try await context.browserSessions.deleteBrowserSession(hash: SecretToken.hash(session.secret))
                context.logger.info("signed out", metadata: ["user": "\(session.userID)"])
            }
        } catch {
            context.logger.error("sign-out failed", metadata: ["error": "\(error)"])
            return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
        }
        var response = Response(status: .seeOther, headers: [.location: "/signin", .cacheControl: "no-store"])
        response.setCookie(signIn.expiredCookie())
        return response
    }

    private func post(_ request: Request, source: String) async -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
        }
        let next = Self.safeNext(form["next"])
        guard let cookieToken = request.cookies[Self.formCookie]?.value, let formToken = form["csrf_token"],
              ConstantTime.equals(cookieToken, formToken)
        else {
            return show(next: next, status: .forbidden, message: "The form expired or did not come from this server. Sign in again.")
        }
        guard let username = form["username"], let password = form["password"] else {
            return show(next: next, status: .badRequest, message: "Enter your username and password.")
        }
        do {
            let signIn = BrowserSignIn(context: context, passwords: passwords)
            switch try await signIn.attempt(username: username, password: password, throttleKey: Self.throttleKey, source: source) {
            case .throttled(let seconds):
                return RateLimitedResponse.html(retryAfterSeconds: seconds, pages: context.pages)
            case .refused:
                return show(next: next, status: .unauthorized, username: username, message: "The username or password is not correct.")
            case .signedIn(_, let session):
                var response = Response(status: .seeOther, headers: [.location: next, .cacheControl: "no-store"])
                response.setCookie(signIn.cookie(session))
                return response
            }
        } catch {
            context.logger.error("sign-in failed", metadata: ["error": "\(error)"])
            return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
        }
    }
}
