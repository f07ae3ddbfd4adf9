import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TandemProtocol

/// The SSO onboarding pages of a signed-in browser:
///
/// - `GET /sso/{clientId}`: for an app with SSO enabled, a new one-time passcode and the page
///   that carries it: a QR code of the onboarding link on a desktop, a "Next" link on a phone,
///   with a countdown, the app's name, the signed-in user and a warning. Without a session the
///   browser is sent to `/signin` and back.
/// - `POST /sso/{clientId}/code`: a new passcode for the page when the countdown ends (JSON).
/// - `GET /sso/{clientId}/status/{id}`: where the page's passcode is (JSON), so the page shows
///   Approve / Deny once a phone claimed it, with what the server observed of that phone (its
///   label in its own words, its network address and whether it is this browser's, its user
///   agent, when), or that two devices tried the code and nobody was signed in.
/// - `POST /sso/{clientId}/decision`: the desktop's Approve or Deny.
///
/// The JSON and form requests carry a ``SessionPageToken`` (anti-forgery, bound to the session); a
/// passcode's state and decision belong to the session that asked for it alone. New passcodes
/// are limited per user (`TandemServerConfiguration/ssoIssueRateLimit`).
struct SSOEndpoint: Sendable {
    let context: OAuthEndpointContext
    let passwords: PasswordVerifier
    /// The server's public base URL, which the link names.
    let issuer: String

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/sso/:clientID") { request, requestContext in
            await page(request, clientID: requestContext.parameters.get("clientID") ?? "", source: requestContext.sourceKey)
        }
        router.post("/sso/:clientID/code") { request, requestContext in
            try await newCode(request, clientID: requestContext.parameters.get("clientID") ?? "", source: requestContext.sourceKey)
        }
        router.get("/sso/:clientID/status/:id") { request, requestContext in
            try await status(request, clientID: requestContext.parameters.get("clientID") ?? "", id: requestContext.parameters.get("id") ?? "")
        }
        router.post("/sso/:clientID/decision") { request, requestContext in
            await decision(request, clientID: requestContext.parameters.get("clientID") ?? "", source: requestContext.sourceKey)
        }
    }

    // MARK: - The page

    private func page(_ request: Request, clientID: String, source: String) async -> Response {
        do {
            guard let app = try await ssoApp(clientID) else { return notAvailable() }
            guard let session = try await signIn.liveSession(request) else {
                let next = "/sso/" + Self.pathComponent(clientID)
                return HTMLResponse.redirect(to: "/signin?next=" + FormEncoding.escape(next))
            }
            guard let user = try await context.accounts.user(id: session.userID) else { return notAvailable() }
            if case .limited(let seconds) = context.ssoIssueLimiter.acquire("sso-issue:" + session.userID) {
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Too many codes", message: "Too many sign-in codes were asked for. Try again in \(seconds) seconds.")),
                    status: .tooManyRequests)
            }
            let code = try await issue(app, session: session, source: source)
            let page = SSOPage(
                appName: app.name, username: user.username, clientPath: Self.pathComponent(clientID), link: code.link, qrSVG: code.svg,
                passcodeID: code.id, expiresAt: code.expiresAt.milliseconds,
                lifetimeSeconds: context.sso.lifetime.components.seconds,
                csrfToken: SessionPageToken.token(session: session.secret, purpose: "sso:" + clientID))
            let phone = Self.isPhone(request.headers[.userAgent] ?? "")
            return HTMLResponse.make(context.pages.render(phone ? .ssoPhone : .ssoDesktop, page), scripts: true)
        } catch {
            return unavailable(error)
        }
    }

    /// A passcode for `app` and its link and QR code.
    private func issue(_ app: AppRecord, session: BrowserSignIn.Session, source: String) async throws
        -> (id: String, link: String, svg: String, expiresAt: Timestamp)
    {
        let (passcode, record) = try await context.sso.issue(
            userID: session.userID, clientID: app.clientID, sessionHash: SecretToken.hash(session.secret), source: source)
        let payload = SSOOnboardingPayload(
            server: issuer, clientID: app.clientID, redirectURI: app.redirectURIs.first ?? "", passcode: passcode,
            expiresAt: record.expiresAt.milliseconds / 1000)
        // A universal link reaches only the app the link host's association file names; a
        // custom scheme reaches whichever app registered it (SECURITY.md, 24.3).
        let link = app.universalLinks(defaultHost: context.ssoLinkHost).map { payload.universalLink(host: $0.host) }
            ?? payload.link(scheme: app.urlScheme ?? app.clientID)
        let svg = try QRCode(encoding: link).svg(label: "QR code to sign in to \(app.name); scan it only with the \(app.name) app")
        return (record.id, link, svg, record.expiresAt)
    }

    // MARK: - The page's requests

    private func newCode(_ request: Request, clientID: String, source: String) async throws(HTTPError) -> Response {
        do {
            guard let app = try await ssoApp(clientID), let session = try await signIn.liveSession(request),
                  SessionPageToken.isValid(request.headers[HTTPField.Name("X-CSRF-Token")!], session: session.secret, purpose: "sso:" + clientID)
            else { throw HTTPError(.invalidRequest, "sign in and use the page's token", status: .forbidden) }
            if case .limited(let seconds) = context.ssoIssueLimiter.acquire("sso-issue:" + session.userID) {
                throw HTTPError.tooManyRequests(retryAfter: seconds)
            }
            let code = try await issue(app, session: session, source: source)
            return Self.json(["id": code.id, "link": code.link, "svg": code.svg, "expires_at_ms": code.expiresAt.milliseconds])
        } catch let error as HTTPError {
            throw error
        } catch {
            return unavailable(error)
        }
    }

    private func status(_ request: Request, clientID: String, id: String) async throws(HTTPError) -> Response {
        do {
            guard let session = try await signIn.liveSession(request), let record = try await context.sso.storage.ssoPasscode(id: id),
                  record.clientID == clientID, ConstantTime.equals(record.sessionHash, SecretToken.hash(session.secret))
            else { throw HTTPError(.invalidRequest, "no such code for this session", status: .notFound) }
            return Self.json(Self.status(of: record))
        } catch let error as HTTPError {
            throw error
        } catch {
            return unavailable(error)
        }
    }

    private func decision(_ request: Request, clientID: String, source: String) async -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
        }
        do {
            guard let app = try await ssoApp(clientID), let session = try await signIn.liveSession(request),
                  SessionPageToken.isValid(form["csrf_token"], session: session.secret, purpose: "sso:" + clientID)
            else {
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Not accepted", message: "This form expired or did not come from this server. Open the SSO page again.")), status: .forbidden)
            }
            let approve = form["decision"] == "approve"
            guard let id = form["id"], form["decision"] == "approve" || form["decision"] == "deny",
                  try await context.sso.decide(
                    id: id, sessionHash: SecretToken.hash(session.secret), approve: approve, userID: session.userID, clientID: clientID, source: source)
            else {
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Nothing to decide", message: "No device is waiting on this code any more: it expired or was already decided.")),
                    status: .conflict)
            }
            let message = approve
                ? "The device is signing in to \(app.name). You can close this page."
                : "The device was not signed in. If you did not scan the code yourself, tell your administrator."
            return HTMLResponse.make(context.pages.render(.message, MessagePage(heading: approve ? "Approved" : "Denied", message: message)))
        } catch {
            return unavailable(error)
        }
    }

    /// The page's view of `record`: its state and, once a device claimed it, what the server
    /// observed of that device. Every value is shown as text by the page's script.
    static func status(of record: SSOPasscodeRecord) -> [String: Any] {
        var body: [String: Any] = ["state": record.state.rawValue, "expires_at_ms": record.expiresAt.milliseconds]
        if let label = record.deviceLabel { body["device"] = label }
        if let address = record.claimSource {
            body["address"] = address
            body["same_network"] = record.issueSource == address
        }
        if let userAgent = record.claimUserAgent { body["user_agent"] = userAgent }
        if let claimedAt = record.claimedAt { body["claimed_at_ms"] = claimedAt.milliseconds }
        return body
    }

    // MARK: - Helpers

    private var signIn: BrowserSignIn { BrowserSignIn(context: context, passwords: passwords) }

    /// The app, if it exists, signs users in and has SSO enabled.
    private func ssoApp(_ clientID: String) async throws -> AppRecord? {
        guard let app = try await context.clients.app(clientID: clientID), app.securityMode == .oauth, app.ssoEnabled else { return nil }
        return app
    }

    private func notAvailable() -> Response {
        HTMLResponse.make(context.pages.render(.message, MessagePage(
            heading: "Not available", message: "Signing in from this page is not enabled for this app.")), status: .notFound)
    }

    private func unavailable(_ error: any Error) -> Response {
        context.logger.error("sso page failed", metadata: ["error": "\(error)"])
        return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
    }

    /// Whether the browser is a phone's, which gets "Next" instead of a QR code.
    static func isPhone(_ userAgent: String) -> Bool {
        ["iPhone", "iPod", "Android", "Mobile"].contains { userAgent.contains($0) }
    }

    /// `clientID` safe inside a URL path.
    static func pathComponent(_ clientID: String) -> String {
        FormEncoding.escape(clientID)
    }

    private static func json(_ object: [String: Any]) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
