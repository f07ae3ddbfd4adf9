import Foundation
import HTTPTypes
import Hummingbird
import TandemProtocol

/// A signed-in user's own page, `/account`, which every user reaches (not only administrators):
/// where they are signed in (each app's grant: when, bound to a device key or not, its approval
/// key), the recent security events about them, and the way out — sign out of one app (its grant
/// and the widgets' grants exchanged from it end, on every instance within the revocation
/// list's second), of everywhere (every grant and every browser session), or of this browser.
///
/// Every form carries a ``SessionPageToken`` for ``tokenPurpose`` (403 and nothing changed
/// without it); a grant of another user is answered as unknown. Each ending is an audit line
/// (`account.signed-out`, `account.signed-out-everywhere`).
struct AccountEndpoint: Sendable {
    static let tokenPurpose = "account"
    /// How many recent security events the page shows.
    static let eventCount = 20

    let context: OAuthEndpointContext
    let passwords: PasswordVerifier

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/account") { request, _ in
            await signedIn(request) { session, user in try await page(session: session, user: user) }
        }
        router.post("/account/sign-ins/:familyID/end") { request, requestContext in
            let familyID = requestContext.parameters.get("familyID") ?? ""
            return await signedInForm(request) { session, user in
                try await endSignIn(familyID, session: session, user: user, source: requestContext.sourceKey)
            }
        }
        router.post("/account/sign-out-everywhere") { request, requestContext in
            await signedInForm(request) { _, user in try await signOutEverywhere(user, source: requestContext.sourceKey) }
        }
    }

    // MARK: - Pages and forms

    private func page(session: String, user: UserRecord, message: String? = nil) async throws -> Response {
        let now = Timestamp(context.clock.now)
        let keys = Dictionary(try await context.stepUpKeys.keys(subject: user.id).map { ($0.familyID, $0.createdAt) }) { first, _ in first }
        var names: [String: String] = [:]
        for app in try await context.apps.apps() { names[app.clientID] = app.name }
        let signIns = try await context.tokens.signIns(userID: user.id, now: now).map { family in
            AccountPage.SignIn(
                familyID: family.id, appName: names[family.clientID] ?? family.clientID, clientID: family.clientID,
                signedInAt: Self.shown(family.createdAt), keyBound: family.dpopJKT != nil,
                stepUpKeyEnrolledAt: keys[family.id].map(Self.shown))
        }
        let events = try await context.audit.storage.auditEvents(clientID: nil, userID: user.id, limit: Self.eventCount).map { event in
            AccountPage.Event(
                at: Self.shown(event.at), kind: event.kind, app: event.clientID.map { names[$0] ?? $0 } ?? "", detail: event.detail)
        }
        let model = AccountPage(
            username: user.username, signIns: signIns, hasSignIns: !signIns.isEmpty, events: events,
            isAdmin: try await context.accounts.isAdmin(userID: user.id),
            csrfToken: SessionPageToken.token(session: session, purpose: Self.tokenPurpose),
            signOutToken: SessionPageToken.token(session: session, purpose: WebSignInEndpoint.signOutPurpose), message: message)
        return HTMLResponse.make(context.pages.render(.account, model))
    }

    private func endSignIn(_ familyID: String, session: String, user: UserRecord, source: String) async throws -> Response {
        let now = Timestamp(context.clock.now)
        guard let family = try await context.tokens.family(id: familyID), family.userID == user.id, family.parentID == nil,
              family.revokedAt == nil
        else {
            return try await page(session: session, user: user, message: "That sign-in had already ended.")
        }
        context.revocations.insert(try await context.tokens.revokeFamily(id: family.id, now: now), now: now)
        try await context.audit.record(
            "account.signed-out", clientID: family.clientID, userID: user.id, source: source,
            detail: "grant \(family.id) ended from the account page", now: now)
        let name = try await context.apps.app(clientID: family.clientID)?.name ?? family.clientID
        return try await page(session: session, user: user, message: "You are signed out of \(name). Its widgets stop showing your data.")
    }

    private func signOutEverywhere(_ user: UserRecord, source: String) async throws -> Response {
        let now = Timestamp(context.clock.now)
        var ended = 0
        for family in try await context.tokens.signIns(userID: user.id, now: now) {
            context.revocations.insert(try await context.tokens.revokeFamily(id: family.id, now: now), now: now)
            ended += 1
        }
        let sessions = try await context.browserSessions.deleteBrowserSessions(userID: user.id)
        try await context.audit.record(
            "account.signed-out-everywhere", clientID: nil, userID: user.id, source: source,
            detail: "\(ended) app sign-in\(ended == 1 ? "" : "s") and \(sessions) browser session\(sessions == 1 ? "" : "s") ended from the account page",
            now: now)
        var response = Response(status: .seeOther, headers: [.location: "/signin?next=/account", .cacheControl: "no-store"])
        response.setCookie(BrowserSignIn(context: context, passwords: passwords).expiredCookie())
        return response
    }

    /// `timestamp` as the page shows it: `2026-12-07 05:17 UTC`.
    static func shown(_ timestamp: Timestamp) -> String {
        let iso = ISO8601Time.string(from: timestamp.date)
        return iso.prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    // MARK: - Guards

    /// Runs `body` for the request's signed-in user; a browser without a session is sent to
    /// `/signin` and back.
    private func signedIn(_ request: Request, _ body: (String, UserRecord) async throws -> Response) async -> Response {
        do {
            guard let session = try await BrowserSignIn(context: context, passwords: passwords).liveSession(request),
                  let user = try await context.accounts.user(id: session.userID)
            else { return HTMLResponse.redirect(to: "/signin?next=" + FormEncoding.escape("/account")) }
            return try await body(session.secret, user)
        } catch {
            context.logger.error("account page failed", metadata: ["error": "\(error)"])
            return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
        }
    }

    /// ``signedIn(_:_:)`` for a form: read, and refused (403, nothing changed) without the page's token.
    private func signedInForm(_ request: Request, _ body: @escaping (String, UserRecord) async throws -> Response) async -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
        }
        return await signedIn(request) { session, user in
            guard SessionPageToken.isValid(form["csrf_token"], session: session, purpose: Self.tokenPurpose) else {
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Not accepted", message: "This form expired or did not come from your account page. Open the page again.")),
                    status: .forbidden)
            }
            return try await body(session, user)
        }
    }
}
