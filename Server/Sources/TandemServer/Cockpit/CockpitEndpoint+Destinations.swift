import Foundation
import HTTPTypes
import Hummingbird
import TandemBackends
import TandemProtocol

/// The cockpit's backend destinations at `/admin/destinations`: the list with each one's circuit,
/// calls and latency (``BackendHTTPClient/health(of:)``), a destination's page with its entity
/// sets and document, saving a document (checked first, as `tandem admin destination set`
/// does), "fetch the first page as a user" through the live client, and removing one. Every
/// change and every fetch is audited under the administrator (`cockpit.destination-saved`,
/// `cockpit.destination-removed`, `cockpit.destination-fetched-as`).
extension CockpitEndpoint {
    /// The longest document the form takes, in bytes (a destination of 50 sets fits).
    static let maximumDestinationDocument = 256 * 1024

    /// Adds the destination routes to `router`.
    func registerDestinations(on router: Router<TandemRequestContext>) {
        router.get("/admin/destinations") { request, _ in
            await guarded(request, next: "/admin/destinations") { admin in try await destinationsPage(admin) }
        }
        router.post("/admin/destinations") { request, requestContext in
            await guardedForm(request, next: "/admin/destinations") { admin, form in
                try await saveDestination(admin, document: form["document"] ?? "", source: requestContext.sourceKey)
            }
        }
        router.get("/admin/destinations/:name") { request, requestContext in
            let name = requestContext.parameters.get("name") ?? ""
            return await guarded(request, next: "/admin/destinations/" + SSOEndpoint.pathComponent(name)) { admin in
                try await destinationPage(admin, name: name)
            }
        }
        router.post("/admin/destinations/:name/fetch") { request, requestContext in
            let name = requestContext.parameters.get("name") ?? ""
            return await guardedForm(request, next: "/admin/destinations") { admin, form in
                try await fetchAs(admin, name: name, form, source: requestContext.sourceKey)
            }
        }
        router.post("/admin/destinations/:name/remove") { request, requestContext in
            let name = requestContext.parameters.get("name") ?? ""
            return await guardedForm(request, next: "/admin/destinations") { admin, _ in
                guard try await database.backendDestinations.remove(named: name) else { return noSuchDestination() }
                try await audit("cockpit.destination-removed", clientID: nil, by: admin, source: requestContext.sourceKey, detail: name)
                return try await destinationsPage(admin, message: "\(name) is removed: its widgets get 404 from now on.")
            }
        }
    }

    // MARK: - Pages

    private func destinationsPage(
        _ admin: Administrator, document: String = "", message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let rows = try await database.backendDestinations.destinations().map { destination in
            CockpitDestinationsPage.Row(
                name: destination.name, path: SSOEndpoint.pathComponent(destination.name), title: destination.title,
                kind: destination.protocolKind.rawValue, baseURL: destination.baseURL,
                entitySets: destination.entitySets.map(\.name).joined(separator: ", "), health: health(of: destination))
        }
        let page = CockpitDestinationsPage(
            username: admin.user.username, destinations: rows, csrfToken: admin.csrfToken, document: document, message: message)
        return HTMLResponse.make(context.pages.render(.cockpitDestinations, page), status: status, scripts: true)
    }

    private func destinationPage(
        _ admin: Administrator, name: String, trial: CockpitDestinationPage.Trial? = nil, trialUsername: String = "",
        trialClientID: String = "", message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let destination = try await database.backendDestinations.destination(named: name) else { return noSuchDestination() }
        let authentication: String
        switch destination.authentication {
        case .userToken(let audience):
            authentication = "the user's token for \(audience) (5 minutes, signed with the server's keys)"
        case .technicalUser(let audience, let userHeader):
            let technical = try await database.backendCredentials.username(of: destination.name)
                .map { "technical user \($0)" } ?? "no technical user stored yet (tandem admin destination set-credential)"
            authentication = "\(technical) (HTTP Basic), the user as a token for \(audience) in \(userHeader)"
        case .none:
            authentication = "none (public data)"
        }
        let sets = destination.entitySets.map { set in
            CockpitDestinationPage.EntitySet(
                name: set.name, path: set.path,
                actions: set.actions.map { "approve, reject (apps: \($0.apps.joined(separator: ", ")))" + ($0.stepUpAbove.map { "; step-up above \($0)" } ?? "") } ?? "–",
                polling: set.pollEverySeconds.map { "every \($0) s" } ?? "–")
        }
        let page = CockpitDestinationPage(
            name: destination.name, path: SSOEndpoint.pathComponent(destination.name), title: destination.title,
            kind: destination.protocolKind.rawValue, baseURL: destination.baseURL, authentication: authentication, entitySets: sets,
            health: health(of: destination), document: Self.pretty(destination.document()), trial: trial,
            trialUsername: trialUsername, trialClientID: trialClientID, csrfToken: admin.csrfToken, message: message)
        return HTMLResponse.make(context.pages.render(.cockpitDestination, page), status: status, scripts: true)
    }

    // MARK: - Forms

    /// Saves the form's document (replacing the destination of its name); a refused document
    /// changes nothing and comes back in the form with the reason.
    private func saveDestination(_ admin: Administrator, document: String, source: String) async throws -> Response {
        guard document.utf8.count <= Self.maximumDestinationDocument else {
            return try await destinationsPage(
                admin, message: "Not saved: the document is over \(Self.maximumDestinationDocument / 1024) KiB.", status: .contentTooLarge)
        }
        let saved: (BackendDestination, created: Bool)
        do {
            saved = try await ServerAdministration(database: database, clock: context.clock).storeBackendDestination(document: Data(document.utf8))
        } catch {
            return try await destinationsPage(admin, document: document, message: "Not saved: \(error)", status: .badRequest)
        }
        try await audit(
            "cockpit.destination-saved", clientID: nil, by: admin, source: source, detail: ServerAdministration.summary(of: saved.0))
        return Response(
            status: .seeOther,
            headers: [.location: "/admin/destinations/" + SSOEndpoint.pathComponent(saved.0.name), .cacheControl: "no-store"])
    }

    /// Fetches the first page of the form's `entity_set` as `username` through `client_id`,
    /// with the server's own client (its circuit and statistics count the call) and a reader of
    /// its own (nothing kept), and shows it on the destination's page.
    private func fetchAs(_ admin: Administrator, name: String, _ form: FormBody, source: String) async throws -> Response {
        let (set, username, clientID) = (form["entity_set"] ?? "", form["username"] ?? "", form["client_id"] ?? "")
        let trial: BackendTrialPage
        do {
            trial = try await ServerAdministration(database: database, clock: context.clock).trialPage(
                destination: name, entitySet: set, username: username, clientID: clientID, limit: 20, client: backendClient,
                minter: backendMinter, logger: context.logger)
        } catch {
            return try await destinationPage(
                admin, name: name, trialUsername: username, trialClientID: clientID, message: "Not fetched: \(error)", status: .badRequest)
        }
        try await audit(
            "cockpit.destination-fetched-as", clientID: clientID, by: admin, source: source,
            detail: "\(name)/\(set) as \(username): \(trial.status)")
        let shown = CockpitDestinationPage.Trial(
            caption: "\(username) through \(clientID): \(set)", status: trial.status, ok: trial.status == 200,
            body: Self.pretty(Data(trial.body.utf8)))
        return try await destinationPage(admin, name: name, trial: shown, trialUsername: username, trialClientID: clientID)
    }

    // MARK: - Helpers

    /// The circuit and statistics of `destination`'s origin, as the pages show them.
    private func health(of destination: BackendDestination) -> CockpitBackendHealth {
        guard let health = backendClient.health(of: destination.baseURL) else {
            return CockpitBackendHealth(circuit: "not called yet", troubled: false, calls: "0 calls since the server started", latency: "–")
        }
        let circuit: String
        var troubled = true
        switch health.state {
        case .closed:
            circuit = "closed"
            troubled = false
        case .open(let retryAfter):
            circuit = "open (retry in \(Self.milliseconds(retryAfter) / 1000 + 1) s)"
        case .halfOpen:
            circuit = "half open (one probe call)"
        }
        let latency = [("p50", health.latency.p50), ("p95", health.latency.p95)].compactMap { label, value in
            value.map { "\(label) \(Self.milliseconds($0)) ms" }
        }
        return CockpitBackendHealth(
            circuit: circuit, troubled: troubled,
            calls: "\(health.successes) ok · \(health.failures) failed · \(health.rejections) refused by the circuit",
            latency: latency.isEmpty ? "–" : latency.joined(separator: " · "))
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// `json` pretty-printed with sorted keys, or as it is when it is not JSON.
    static func pretty(_ json: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
            let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return String(decoding: json, as: UTF8.self) }
        return String(decoding: pretty, as: UTF8.self)
    }

    private func noSuchDestination() -> Response {
        HTMLResponse.make(
            context.pages.render(.message, MessagePage(heading: "No such destination", message: "There is no backend destination of this name.")),
            status: .notFound)
    }
}
