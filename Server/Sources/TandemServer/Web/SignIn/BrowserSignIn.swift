import Hummingbird

/// One password sign-in from a browser form, with the defences every form shares: the
/// escalating delays (checked before any hash is computed), the source address's rate, the
/// password check, and on success a new browser session.
///
/// An account's failures are counted twice: per source address (``SignInThrottle``, a few free,
/// then a delay that doubles), so that a stranger's guesses slow the stranger and not the user
/// signing in from elsewhere; and for the account as a whole with a far larger allowance
/// (`accountSignInThrottle`), so that guesses spread over many addresses are slowed too.
///
/// `/oauth/authorize` and `/signin` (the SSO and cockpit pages) both sign in through it; the
/// session cookie is valid for the whole site, so one sign-in serves every page.
struct BrowserSignIn: Sendable {
    /// The session cookie's name.
    static let sessionCookie = "tandem_session"
    /// The key every form's failures for one account are counted under: one guessing budget per
    /// account, not one per app plus one for the site.
    static let accountBudget = "*"

    /// The key one source address's failures for an account are counted under, across every
    /// form.
    static func sourceBudget(_ source: String) -> String {
        "* " + source
    }

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
        // One failure budget per account and source, and one per account, whichever form the
        // guesses come through (the site's own or any app's): `throttleKey` only names the form
        // in the log.
        let now = Timestamp(context.clock.now)
        let budgets = [Self.sourceBudget(source), Self.accountBudget]
        let fromSource = try await context.signInFailures.signInFailures(clientID: budgets[0], username: username)
        let overall = try await context.signInFailures.signInFailures(clientID: budgets[1], username: username)
        if let seconds = context.signInThrottle.retryAfterSeconds(fromSource, now: now)
            ?? context.accountSignInThrottle.retryAfterSeconds(overall, now: now)
        {
            context.logger.notice("sign-in delayed after failures", metadata: ["client_id": "\(throttleKey)", "source": "\(source)"])
            return .throttled(seconds)
        }
        if case .limited(let seconds) = context.loginLimiter.acquire("login:" + source) {
            context.logger.notice("sign-in rate-limited", metadata: ["client_id": "\(throttleKey)", "source": "\(source)"])
            return .throttled(seconds)
        }
        guard let user = try await passwords.verify(
            username: username, password: password, accounts: context.accounts, logger: context.logger)
        else {
            for budget in budgets {
                try await context.signInFailures.recordSignInFailure(clientID: budget, username: username, now: Timestamp(context.clock.now))
            }
            context.logger.notice("sign-in failed", metadata: ["client_id": "\(throttleKey)"])
            return .refused
        }
        for (budget, failures) in zip(budgets, [fromSource, overall]) where failures != nil {
            try await context.signInFailures.clearSignInFailures(clientID: budget, username: username)
        }
        let session = SecretToken.generate(.browserSession)
        let signedInAt = Timestamp(context.clock.now)
        try await context.browserSessions.createBrowserSession(
            hash: SecretToken.hash(session), userID: user.id, now: signedInAt, expiresAt: signedInAt.adding(context.browserSessionLifetime))
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
