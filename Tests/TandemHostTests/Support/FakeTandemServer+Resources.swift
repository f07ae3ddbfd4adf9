import Foundation
import TandemAuth
import TandemProtocol
import TandemVault

/// The app configuration document and the business data.
extension FakeTandemServer {
    /// Sales with two entity sets and HR with one: three options for a widget.
    static let demoDestinations = [
        Destination(name: "hr", title: "HR (demo)", entitySets: [
            EntitySet(name: "Employees", rows: [["EmployeeID": "E-1", "LastName": "Lovelace"], ["EmployeeID": "E-2", "LastName": "Hopper"]]),
        ]),
        Destination(name: "sales", title: "Sales (demo)", entitySets: [
            EntitySet(name: "Customers", rows: [["CustomerID": "C-1", "CustomerName": "Acme"]]),
            EntitySet(name: "SalesOrders", rows: (1...4).map { ["SalesOrderID": "SO-\($0)", "GrossAmount": "\($0 * 100).00"] }),
        ]),
    ]

    /// `GET /v1/apps/{clientId}/configuration`: the real server's `AppConfigurationDocument`.
    func configuration(_ app: App) -> HTTPResponse {
        Self.encoded(200, AppConfigurationDocument(
            issuer: Self.base.absoluteString, clientID: app.clientID, name: app.name, securityMode: app.securityMode,
            redirectURIs: app.redirectURIs, urlScheme: app.urlScheme, ssoEnabled: false, defaultScope: OAuthScope.userGrantable,
            passcodePolicy: PasscodePolicyDocument(app.passcodePolicy), lockScreenRedaction: app.lockScreenRedaction,
            dpopRequired: app.dpopRequired))
    }

    /// `GET /v1/destinations`: the real server's `DestinationListing`.
    func listing(_ request: HTTPRequest, _ state: State) -> HTTPResponse {
        if let refusal = refusal(of: request, state) { return refusal }
        return Self.encoded(200, DestinationListing(destinations: state.destinations.map { destination in
            DestinationListing.Destination(name: destination.name, title: destination.title, entitySets: destination.entitySets.map { set in
                DestinationListing.EntitySet(name: set.name, destination: destination.name, count: set.rows.count, updatedAt: "2025-01-01T00:00:00Z")
            })
        }))
    }

    /// `GET /v1/destinations/{destination}/{entitySet}?limit=`: the first `limit` rows.
    /// `PUT /v1/push/devices/{id}`: keeps the body as the device's registration (its text
    /// fields, and the widgets it names).
    func registerPush(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        if let refusal = refusal(of: request, state) { return refusal }
        guard let object = try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any],
              let document = try? JSONDecoder().decode(PushDeviceTokensDocument.self, from: request.body ?? Data())
        else {
            return Self.oauthError("invalid_request", "not a registration", status: 400)
        }
        let body = object.compactMapValues { $0 as? String }
        let device = request.url.lastPathComponent
        state.pushRegistrations[device] = body
        state.pushWidgets[device] = document.widgets ?? []
        return Self.json(200, ["device_id": device, "kinds": ["host_token", "widgets_token"].filter { body[$0] != nil }])
    }

    /// The push registrations the server holds, by device: their text fields.
    var pushRegistrations: [String: [String: String]] { state.withLock { $0.pushRegistrations } }
    /// What each registered device's widgets show.
    var pushWidgets: [String: [PushWidgetSubscription]] { state.withLock { $0.pushWidgets } }

    func page(_ request: HTTPRequest, _ state: State) -> HTTPResponse {
        if let refusal = refusal(of: request, state) { return refusal }
        let segments = request.url.path.split(separator: "/").dropFirst(2).map(String.init)
        guard segments.count == 2,
            let set = state.destinations.first(where: { $0.name == segments[0] })?.entitySets.first(where: { $0.name == segments[1] })
        else { return Self.oauthError("not_found", "no such entity set", status: 404) }
        if let error = state.refusedEntitySets[segments.joined(separator: "/")] {
            return Self.oauthError(error, "the backend refused the user", status: 403)
        }
        if state.failingEntitySets.contains(segments.joined(separator: "/")) {
            return Self.oauthError("server_error", "the destination did not answer", status: 500)
        }
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let limit = query.first { $0.name == "limit" }.flatMap { $0.value.flatMap(Int.init) } ?? 50
        let rows = Array(set.rows.prefix(limit))
        return Self.json(
            200, ["items": rows, "limit": limit, "offset": 0, "total": set.rows.count, "next": NSNull()],
            headers: ["ETag": "\"\(segments.joined(separator: "-"))-\(rows.count)\""])
    }

    /// A 401 unless the request carries a live bearer token with `data.read`, or a live key of an
    /// API-key app.
    private func refusal(of request: HTTPRequest, _ state: State) -> HTTPResponse? {
        if let key = request.headers["X-API-Key"] {
            guard state.app.securityMode == "apiKey", state.app.apiKeys.contains(key) else {
                return Self.oauthError("invalid_api_key", "the API key is not valid", status: 401)
            }
            return nil
        }
        let parts = (request.headers["Authorization"] ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = state.accessTokens[parts[1]], let family = state.families[id],
            !family.revoked, family.scope.split(separator: " ").contains("data.read")
        else { return Self.oauthError("invalid_token", "a live bearer token with data.read is required", status: 401) }
        guard let jkt = family.jkt else {
            return parts[0] == "Bearer" ? nil : Self.oauthError("invalid_token", "a bearer token goes as Bearer", status: 401)
        }
        // A bound token: the DPoP scheme and a proof of this request by the grant's key (no nonce).
        guard parts[0] == "DPoP", let header = request.headers["DPoP"], let proof = try? DPoPProof(parsing: header),
            proof.publicKey.thumbprint == jkt,
            (try? proof.check(method: request.method.rawValue, url: request.url.absoluteString, now: clock.now, accessToken: parts[1])) != nil
        else { return Self.oauthError("invalid_token", "a bound token needs the DPoP scheme and a proof by its key", status: 401) }
        return nil
    }
}
