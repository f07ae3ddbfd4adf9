import Foundation
import HTTPTypes
import Hummingbird
import TandemBackends
import TandemProtocol

/// The administrators' cockpit at `/admin`: the apps, creating one, each app's SSO settings and
/// onboarding URL, its API keys (a new key shown once, revocation), its APNs key (stored sealed,
/// never shown) and the pushes sent and refused, a chart of its widget taps over the last seven
/// days (``TapChart``) and its audit log; and the backend destinations (`/admin/destinations`,
/// in CockpitEndpoint+Destinations.swift).
///
/// Only a signed-in administrator gets a page (anyone else: `/signin`, or 403); every form
/// carries a ``SessionPageToken`` for `cockpit`, and a form without it changes nothing (403).
struct CockpitEndpoint: Sendable {
    static let tokenPurpose = "cockpit"

    let context: OAuthEndpointContext
    let passwords: PasswordVerifier
    /// The apps, administrators, keys, audit log, analytics and business data (for previews):
    /// the cockpit administers the whole database.
    let database: ServerDatabase
    /// The server's public base URL, for the SSO onboarding URL.
    let issuer: String
    /// Told the stored hash of each key revoked here, so the resource endpoints refuse it at once.
    let onAPIKeyRevoked: @Sendable (String) -> Void
    /// The key APNs auth keys are sealed under.
    let sealingKey: Data
    /// The server's client for customer backends: its circuits and statistics on the
    /// destinations' pages, and the calls "fetch the first page as" makes.
    let backendClient: BackendHTTPClient
    /// Mints the users' tokens for those calls, as the server's reads do.
    let backendMinter: BackendTokenMinter

    /// The signed-in administrator of a request.
    struct Administrator: Sendable {
        let session: String
        let user: UserRecord
        var csrfToken: String { SessionPageToken.token(session: session, purpose: CockpitEndpoint.tokenPurpose) }
    }

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/admin") { request, _ in await guarded(request, next: "/admin") { admin in try await appsPage(admin) } }
        router.post("/admin/apps") { request, requestContext in
            await guardedForm(request, next: "/admin") { admin, form in try await createApp(admin, form, source: requestContext.sourceKey) }
        }
        router.get("/admin/apps/:clientID") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guarded(request, next: "/admin/apps/" + SSOEndpoint.pathComponent(clientID)) { admin in
                try await appPage(admin, clientID: clientID)
            }
        }
        router.post("/admin/apps/:clientID/settings") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, form in
                let (sso, confirmation) = (form["sso"] == "on", form["confirmation"] == "on")
                guard try await database.apps.setSSO(clientID: clientID, enabled: sso, confirmation: confirmation) else {
                    return notFound()
                }
                context.clients.forget(clientID: clientID)
                try await audit(
                    "cockpit.sso-changed", clientID: clientID, by: admin, source: requestContext.sourceKey,
                    detail: "sso \(sso ? "on" : "off"), desktop approval \(confirmation ? "on" : "off")")
                return try await appPage(admin, clientID: clientID, message: "Saved.")
            }
        }
        router.post("/admin/apps/:clientID/universal-links") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, form in
                try await setUniversalLinks(admin, clientID: clientID, form, source: requestContext.sourceKey)
            }
        }
        registerSwitch(
            on: router, path: "lock-screen", field: "redaction", kind: "cockpit.lock-screen-changed",
            detail: { "lock screen redaction \($0 ? "on" : "off")" }, set: database.apps.setLockScreenRedaction(clientID:enabled:))
        registerSwitch(
            on: router, path: "dpop", field: "required", kind: "cockpit.dpop-changed",
            detail: { "DPoP \($0 ? "required" : "optional")" }, set: database.apps.setDPoPRequired(clientID:required:))
        router.post("/admin/apps/:clientID/keys") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, _ in
                guard let app = try await context.apps.app(clientID: clientID) else { return notFound() }
                guard app.securityMode == .apiKey else {
                    return try await appPage(admin, clientID: clientID, message: "This app signs users in with OAuth: API keys are for API-key apps.")
                }
                let key = try await ServerAdministration(database: database, clock: context.clock).createAPIKey(clientID: clientID)
                try await audit("cockpit.api-key-created", clientID: clientID, by: admin, source: requestContext.sourceKey, detail: "an API key")
                return try await appPage(admin, clientID: clientID, newKey: key)
            }
        }
        router.post("/admin/apps/:clientID/apns-key") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, form in
                try await setAPNsKey(admin, clientID: clientID, form, source: requestContext.sourceKey)
            }
        }
        router.post("/admin/apps/:clientID/keys/:keyID/revoke") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            let keyID = requestContext.parameters.get("keyID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, _ in
                let revokedHash = try await database.apps.revokeAPIKey(id: keyID, clientID: clientID, now: Timestamp(context.clock.now))
                if let revokedHash {
                    onAPIKeyRevoked(revokedHash)
                    try await audit("cockpit.api-key-revoked", clientID: clientID, by: admin, source: requestContext.sourceKey, detail: "API key \(keyID)")
                }
                return try await appPage(admin, clientID: clientID, message: revokedHash != nil ? "The key is revoked." : "That key was already revoked.")
            }
        }
        registerDestinations(on: router)
    }

    // MARK: - Pages

    private func appsPage(_ admin: Administrator, message: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let rows = try await database.apps.apps().map { app in
            CockpitAppsPage.Row(
                clientID: app.clientID, path: SSOEndpoint.pathComponent(app.clientID), name: app.name,
                mode: app.securityMode == .oauth ? "OAuth" : "API key",
                sso: app.ssoEnabled ? (app.ssoConfirmation ? "on, desktop approves" : "on") : "off")
        }
        let page = CockpitAppsPage(
            username: admin.user.username, apps: rows, csrfToken: admin.csrfToken,
            signOutToken: SessionPageToken.token(session: admin.session, purpose: WebSignInEndpoint.signOutPurpose), message: message)
        return HTMLResponse.make(context.pages.render(.cockpitApps, page), status: status, scripts: true)
    }

    private func appPage(
        _ admin: Administrator, clientID: String, newKey: String? = nil, message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let app = try await context.apps.app(clientID: clientID) else { return notFound() }
        let token = admin.csrfToken
        let path = SSOEndpoint.pathComponent(clientID)
        let keys = try await database.apps.apiKeys(clientID: clientID).map { key in
            CockpitAppPage.Key(
                id: key.id, path: path, created: ISO8601Time.string(from: key.createdAt.date, fractionalSeconds: false),
                state: key.revokedAt.map { "revoked \(ISO8601Time.string(from: $0.date, fractionalSeconds: false))" } ?? "live", live: key.revokedAt == nil, csrfToken: token)
        }
        let audit = try await database.audit.auditEvents(clientID: clientID, limit: 50).map { event in
            CockpitAppPage.AuditLine(
                at: ISO8601Time.string(from: event.at.date, fractionalSeconds: false), kind: event.kind, user: event.userID ?? "", source: event.source ?? "", detail: event.detail)
        }
        let now = Timestamp(context.clock.now)
        let taps = try await database.analytics.eventCounts(clientID: clientID, name: "widget.tap", from: now.adding(.seconds(-7 * 24 * 3600)), to: now)
        let tapTotal = taps.reduce(0) { $0 + $1.count }
        let apnsKey = try await database.apnsCredentials.summary(clientID: clientID)
        let actions = try await actionLines(clientID: clientID, from: now.adding(.seconds(-7 * 24 * 3600)), to: now)
        let page = CockpitAppPage(
            clientID: clientID, path: path, name: app.name, apiKeyApp: app.securityMode == .apiKey, ssoEnabled: app.ssoEnabled, ssoConfirmation: app.ssoConfirmation,
            lockScreenRedaction: app.lockScreenRedaction, dpopRequired: app.dpopRequired,
            ssoURL: issuer + "/sso/" + path, linkHost: app.universalLinks(defaultHost: context.ssoLinkHost)?.host ?? app.ssoLinkHost ?? "",
            appleAppID: app.appleAppID ?? "", universalLinks: app.universalLinks(defaultHost: context.ssoLinkHost) != nil, keys: keys, audit: audit, tapChart: TapChart(taps).svg(),
            tapSummary: "\(tapTotal) tap\(tapTotal == 1 ? "" : "s")",
            apnsKey: apnsKey.map { "\($0.keyID) of team \($0.teamID), topic \($0.bundleID)" },
            pushSummary: try await pushSummary(clientID: clientID),
            previews: try await WidgetPreviews.make(from: taps, storage: database.businessData, now: now.date).map { CockpitAppPage.Preview(caption: $0.caption, svg: $0.svg) },
            actions: actions, actionSummary: Self.actionSummary(actions), hasActions: !actions.isEmpty,
            newKey: newKey, message: message, csrfToken: token)
        return HTMLResponse.make(context.pages.render(.cockpitApp, page), status: status, scripts: true)
    }

    private func createApp(_ admin: Administrator, _ form: FormBody, source: String) async throws -> Response {
        let clientID = form["client_id"] ?? ""
        let mode: SecurityMode = form["security_mode"] == "apiKey" ? .apiKey : .oauth
        let redirectURIs = (form["redirect_uri"] ?? "").isEmpty ? [] : [form["redirect_uri"] ?? ""]
        let scheme = (form["url_scheme"] ?? "").isEmpty ? nil : form["url_scheme"]
        do {
            try await ServerAdministration(database: database, clock: context.clock).createApp(
                clientID: clientID, name: form["name"] ?? "", redirectURIs: redirectURIs, urlScheme: scheme, securityMode: mode,
                ssoEnabled: form["sso"] == "on")
        } catch {
            return try await appsPage(admin, message: "The app was not created: \(error)", status: .badRequest)
        }
        context.clients.forget(clientID: clientID)
        try await audit("cockpit.app-created", clientID: clientID, by: admin, source: source, detail: "\(mode == .apiKey ? "API-key" : "OAuth") app")
        return Response(status: .seeOther, headers: [.location: "/admin/apps/" + SSOEndpoint.pathComponent(clientID), .cacheControl: "no-store"])
    }

    /// Sets or clears the app's universal SSO links from the form's `link_host` and
    /// `apple_app_id` (both empty: back to the custom scheme); a refused value changes nothing.
    private func setUniversalLinks(_ admin: Administrator, clientID: String, _ form: FormBody, source: String) async throws -> Response {
        guard try await context.apps.app(clientID: clientID) != nil else { return notFound() }
        let host = (form["link_host"] ?? "").isEmpty ? nil : form["link_host"]
        let appleAppID = (form["apple_app_id"] ?? "").isEmpty ? nil : form["apple_app_id"]
        let links: AppRecord.UniversalLinks?
        do {
            links = try await ServerAdministration(database: database, clock: context.clock).setUniversalLinks(
                clientID: clientID, host: host, appleAppID: appleAppID, issuerHost: URLComponents(string: issuer)?.host,
                defaultHost: context.ssoLinkHost)
        } catch {
            return try await appPage(admin, clientID: clientID, message: "Not saved: \(error)", status: .badRequest)
        }
        context.clients.forget(clientID: clientID)
        try await audit(
            "cockpit.universal-links-changed", clientID: clientID, by: admin, source: source,
            detail: links.map { "SSO links https://\($0.host) for \($0.appleAppID)" } ?? "SSO links use the custom scheme")
        return try await appPage(admin, clientID: clientID, message: "Saved.")
    }

    /// Stores the app's APNs key from the form (`key_id`, `team_id`, `bundle_id`, and `key`: the
    /// `.p8` file's text), sealed; a refused value changes nothing.
    private func setAPNsKey(_ admin: Administrator, clientID: String, _ form: FormBody, source: String) async throws -> Response {
        guard let app = try await context.apps.app(clientID: clientID) else { return notFound() }
        guard app.securityMode == .oauth else {
            return try await appPage(admin, clientID: clientID, message: "Pushes need the user's grant: this is an API-key app.", status: .badRequest)
        }
        let (keyID, teamID, bundleID) = (form["key_id"] ?? "", form["team_id"] ?? "", form["bundle_id"] ?? "")
        do {
            try await ServerAdministration(database: database, clock: context.clock).setAPNsKey(
                clientID: clientID, keyID: keyID, teamID: teamID, bundleID: bundleID, keyPEM: form["key"] ?? "", sealingKey: sealingKey)
        } catch {
            return try await appPage(admin, clientID: clientID, message: "Not saved: \(error)", status: .badRequest)
        }
        try await audit("cockpit.apns-key-changed", clientID: clientID, by: admin, source: source, detail: "APNs key \(keyID) of team \(teamID), topic \(bundleID)")
        return try await appPage(admin, clientID: clientID, message: "Saved.")
    }

    /// The widget actions the app's hosts reported (``ActionEventNames``), by outcome, surface
    /// (the events' `kind`) and family, most first within each outcome.
    private func actionLines(clientID: String, from: Timestamp, to: Timestamp) async throws -> [CockpitAppPage.ActionLine] {
        var lines: [CockpitAppPage.ActionLine] = []
        for outcome in ActionEventNames.outcomes {
            let counts = try await database.analytics.eventCounts(clientID: clientID, name: ActionEventNames.name(outcome: outcome), from: from, to: to)
            lines += counts.sorted { $0.count > $1.count }.map {
                CockpitAppPage.ActionLine(outcome: outcome, surface: $0.kind ?? "–", family: $0.family ?? "–", count: $0.count)
            }
        }
        return lines
    }

    /// "14 actions: 11 done, 2 conflict, 1 needs-app", or that there were none.
    static func actionSummary(_ lines: [CockpitAppPage.ActionLine]) -> String {
        let total = lines.reduce(0) { $0 + $1.count }
        guard total > 0 else { return "No widget action in the last seven days." }
        let byOutcome = ActionEventNames.outcomes.compactMap { outcome -> String? in
            let count = lines.filter { $0.outcome == outcome }.reduce(0) { $0 + $1.count }
            return count > 0 ? "\(count) \(outcome)" : nil
        }
        return "\(total) action\(total == 1 ? "" : "s"): " + byOutcome.joined(separator: ", ")
    }

    /// "Host pushes: 12 sent · Widget pushes: 12 sent, 1 refused · 0 owed".
    private func pushSummary(clientID: String) async throws -> String {
        let counts = try await database.pushOutbox.counts(clientID: clientID)
        var parts: [String] = []
        for kind in PushRegistration.Kind.allCases {
            let sent = counts[kind]?[.sent] ?? 0
            let refused = (counts[kind]?[.refused] ?? 0) + (counts[kind]?[.dropped] ?? 0)
            parts.append("\(kind == .widgets ? "Widget" : "Host") pushes: \(sent) sent" + (refused > 0 ? ", \(refused) refused" : ""))
        }
        let owed = try await database.pushOutbox.pendingCount(clientID: clientID)
        return parts.joined(separator: " · ") + " · \(owed) owed"
    }

    /// `POST /admin/apps/{id}/<path>`: one of an app's switches, on when the form's `field` is
    /// `on`; the directory forgets the app (so the change holds at once) and the change is
    /// audited as `kind`.
    private func registerSwitch(
        on router: Router<TandemRequestContext>, path: String, field: String, kind: String, detail: @escaping @Sendable (Bool) -> String,
        set: @escaping @Sendable (String, Bool) async throws(StorageError) -> Bool
    ) {
        router.post("/admin/apps/:clientID/\(path)") { request, requestContext in
            let clientID = requestContext.parameters.get("clientID") ?? ""
            return await guardedForm(request, next: "/admin") { admin, form in
                let on = form[field] == "on"
                guard try await set(clientID, on) else { return notFound() }
                context.clients.forget(clientID: clientID)
                try await audit(kind, clientID: clientID, by: admin, source: requestContext.sourceKey, detail: detail(on))
                return try await appPage(admin, clientID: clientID, message: "Saved.")
            }
        }
    }

    /// Records a change made here in the audit log (and the server's log), by `admin` from `source`.
    func audit(_ kind: String, clientID: String?, by admin: Administrator, source: String, detail: String) async throws(StorageError) {
        try await AuditLog(storage: database.audit, logger: context.logger)
            .record(kind, clientID: clientID, userID: admin.user.id, source: source, detail: detail, now: Timestamp(context.clock.now))
    }

    // MARK: - Guards

    /// Runs `body` for a signed-in administrator; sends anyone else to sign in (no session) or
    /// refuses them (403).
    func guarded(_ request: Request, next: String, _ body: (Administrator) async throws -> Response) async -> Response {
        do {
            let signIn = BrowserSignIn(context: context, passwords: passwords)
            guard let session = try await signIn.liveSession(request) else {
                return HTMLResponse.redirect(to: "/signin?next=" + FormEncoding.escape(next))
            }
            guard let user = try await context.accounts.user(id: session.userID), try await database.accounts.isAdmin(userID: user.id) else {
                context.logger.notice("cockpit refused a user who is not an administrator", metadata: ["user": "\(session.userID)"])
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Administrators only", message: "Your account cannot use the cockpit.")), status: .forbidden)
            }
            return try await body(Administrator(session: session.secret, user: user))
        } catch {
            context.logger.error("cockpit failed", metadata: ["error": "\(error)"])
            return HTMLResponse.make(context.pages.signInError("The server could not complete the request. Try again in a moment."), status: .serviceUnavailable)
        }
    }

    /// ``guarded(_:next:_:)`` for a form: read, and refused (403) without the page's token.
    func guardedForm(_ request: Request, next: String, _ body: @escaping (Administrator, FormBody) async throws -> Response) async -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return HTMLResponse.make(context.pages.signInError("The form could not be read: \(failure.message)."), status: failure.status)
        }
        return await guarded(request, next: next) { admin in
            guard SessionPageToken.isValid(form["csrf_token"], session: admin.session, purpose: Self.tokenPurpose) else {
                context.logger.notice("cockpit form without its token", metadata: ["user": "\(admin.user.id)"])
                return HTMLResponse.make(context.pages.render(.message, MessagePage(
                    heading: "Not accepted", message: "This form expired or did not come from the cockpit. Open the page again.")), status: .forbidden)
            }
            return try await body(admin, form)
        }
    }

    private func notFound() -> Response {
        HTMLResponse.make(context.pages.render(.message, MessagePage(heading: "No such app", message: "There is no app with this client id.")), status: .notFound)
    }
}
