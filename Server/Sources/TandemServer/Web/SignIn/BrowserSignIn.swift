import Hummingbird

/// One password sign-in from a browser form, with the defences every form shares: the
/// account's escalating delay (checked before any hash is computed), the source address's rate,
/// the password check, and on success a new browser session.
///
/// `/oauth/authorize` and `/signin` (the SSO and cockpit pages) both sign in through it; the
/// session cookie is valid for the whole site, so one sign-in serves every page.
struct BrowserSignIn: Sendable {
    /// The session cookie's name.
    static let sessionCookie = "tandem_session"
    /// The key every form's failures for one account are counted under: one guessing budget per
    /// account, not one per app plus one for the site.
    static let accountBudget = "*"

    let context: OAuthEndpointContext
    let passwords: PasswordVerifier

    /// A live browser session: the cookie's secret and its user.
    struct Session: Sendable {
        let secret: String
        let userID: String
    }

    /// What an attempt came to.
    enum Outcome: Sendable {
        /// Signed in: the user and the new session's secret (for the cookie).
        case signedIn(UserRecord, session: String)
        /// Refused before checking: retry after this many seconds.
        case throttled(Int)
        /// The username or password is wrong (recorded for the delay).
        case refused
    }

    /// Checks `username` and `password`; `throttleKey` names whose delay an account's failures
    /// count towards (an app's client id, or the site's own pages).
    func attempt(username: String, password: String, throttleKey: String, source: String) async throws -> Outcome {
        // One failure budget per account, whichever form the guesses come through (the site's
        // own or any app's): `throttleKey` only names the form in the log.
        let failures = try await context.signInFailures.signInFailures(clientID: Self.accountBudget, username: username)
        if let seconds = context.signInThrottle.retryAfterSeconds(failures, now: Timestamp(context.clock.now)) {
            context.logger.notice("sign-in delayed after failures", metadata: ["client_id": "\(throttleKey)"])
            return .throttled(seconds)
        }
        if case .limited(let seconds) = context.loginLimiter.acquire("login:" + source) {
            context.logger.notice("sign-in rate-limited", metadata: ["client_id": "\(throttleKey)", "source": "\(source)"])
            return .throttled(seconds)
        }
        guard let user = try await passwords.verify(
            username: username, password: password, accounts: context.accounts, logger: context.logger)
        else {
            try await context.signInFailures.recordSignInFailure(clientID: Self.accountBudget, username: username, now: Timestamp(context.clock.now))
            context.logger.notice("sign-in failed", metadata: ["client_id": "\(throttleKey)"])
            return .refused
        }
        if failures != nil { try await context.signInFailures.clearSignInFailures(clientID: Self.accountBudget, username: username) }
        let session = SecretToken.generate(.browserSession)
        let now = Timestamp(context.clock.now)
        try await context.browserSessions.createBrowserSession(
            hash: SecretToken.hash(session), userID: user.id, now: now, expiresAt: now.adding(context.browserSessionLifetime))
        context.logger.info("signed in", metadata: ["client_id": "\(throttleKey)", "user": "\(user.id)"])
        return .signedIn(user, session: session)
    }

    /// The cookie carrying `session`: the whole site, `HttpOnly`, `SameSite=Lax` (the app's
    /// sign-in returns by a top-level redirect), `Secure` behind https.
    func cookie(_ session: String) -> Cookie {
        cookie(value: session, maxAge: Int(context.browserSessionLifetime.components.seconds))
    }

    /// A cookie that makes the browser forget its session at once.
    func expiredCookie() -> Cookie {
        cookie(value: "", maxAge: 0)
    }

    private func cookie(value: String, maxAge: Int) -> Cookie {
        Cookie(name: Self.sessionCookie, value: value, maxAge: maxAge, path: "/", secure: context.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// The live session named by `request`'s cookie: its secret and user, or `nil`.
    func liveSession(_ request: Request) async throws(StorageError) -> Session? {
        guard let secret = request.cookies[Self.sessionCookie]?.value,
              let userID = try await context.browserSessions.browserSessionUser(hash: SecretToken.hash(secret), now: Timestamp(context.clock.now))
        else { return nil }
        return Session(secret: secret, userID: userID)
    }
}
