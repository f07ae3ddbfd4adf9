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

    /// `GET /v1/apps/{clientId}/configuration`, shaped as the real server's `AppConfigurationDocument`.
    func configuration(_ app: App) -> HTTPResponse {
        let base = Self.base.absoluteString
        let policy = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(PasscodePolicyDocument(app.passcodePolicy)))) ?? [:]
        return Self.json(200, [
            "issuer": base, "client_id": app.clientID, "name": app.name, "security_mode": app.securityMode,
            "redirect_uris": app.redirectURIs, "url_scheme": app.urlScheme.map { $0 as Any } ?? NSNull(), "sso_enabled": false,
            "default_scope": "data.read data.write events.write offline_access",
            "endpoints": ["authorization": base + "/oauth/authorize", "token": base + "/oauth/token", "resources": base + "/v1/destinations"],
            "passcode_policy": policy,
        ])
    }

    /// `GET /v1/destinations`.
    func listing(_ request: HTTPRequest, _ state: State) -> HTTPResponse {
        if let refusal = refusal(of: request, state) { return refusal }
        return Self.json(200, ["destinations": state.destinations.map { destination in
            [
                "name": destination.name, "title": destination.title,
                "entity_sets": destination.entitySets.map { set in
                    ["name": set.name, "count": set.rows.count, "updated_at": "2025-01-01T00:00:00Z",
                     "href": "/v1/destinations/\(destination.name)/\(set.name)"] as [String: Any]
                },
            ] as [String: Any]
        }])
    }

    /// `GET /v1/destinations/{destination}/{entitySet}?limit=`: the first `limit` rows.
    func page(_ request: HTTPRequest, _ state: State) -> HTTPResponse {
        if let refusal = refusal(of: request, state) { return refusal }
        let segments = request.url.path.split(separator: "/").dropFirst(2).map(String.init)
        guard segments.count == 2,
            let set = state.destinations.first(where: { $0.name == segments[0] })?.entitySets.first(where: { $0.name == segments[1] })
        else { return Self.oauthError("not_found", "no such entity set", status: 404) }
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
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer "),
            let id = state.accessTokens[String(header.dropFirst("Bearer ".count))], let family = state.families[id],
            !family.revoked, family.scope.split(separator: " ").contains("data.read")
        else { return Self.oauthError("invalid_token", "a live bearer token with data.read is required", status: 401) }
        return nil
    }
}
