import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// The demo (``BusinessDataFixture``: its `Approvals` set actionable) served in process on a
/// manual clock, with a host signed in for real (a grant in the database, tokens from the token
/// endpoint), for the tests of item actions and step-up.
struct ActionFixture: Sendable {
    /// The seeded demo and its clock.
    let demo: BusinessDataFixture
    /// The client of the server.
    let client: InProcessClient
    /// The test database.
    let database: TestDatabase

    /// The demo's approvals.
    static let approvals = (destination: DemoBusinessData.destination, entitySet: DemoBusinessData.approvals)
    /// An approval at most 1000.00 (no step-up), and one above.
    static let (lowValue, highValue) = ("PR-1001", "PR-1002")

    /// Seeds a database of `backend`, serves it in process on the fixture's clock with
    /// `configure` applied, and runs `body`.
    static func withServer<Result: Sendable>(
        _ backend: TestBackend, configure: @escaping @Sendable (inout TandemServerConfiguration) -> Void = { _ in },
        _ body: @Sendable @escaping (ActionFixture) async throws -> Result
    ) async throws -> Result {
        try await backend.withDatabase { database in
            let demo = try await database.withStorage { try await BusinessDataFixture.seed($0) }
            return try await InProcessServer.test(database, clock: demo.clock, configure: configure) { client in
                try await body(ActionFixture(demo: demo, client: client, database: database))
            }
        }
    }

    /// A host's sign-in: an access token of a new grant of `username` (default the demo user) in
    /// the demo app (scope ``OAuthScope/userGrantable``, which carries `actions`), and the grant's
    /// refresh token.
    func signIn(
        as username: String = ServerAdministration.demoUsername, to clientID: String = ServerAdministration.demoClientID
    ) async throws -> (access: String, refresh: String) {
        let issued = try await database.withStorage { storage in
            try await ServerAdministration(database: storage, clock: demo.clock).issueRefreshTokens(
                username: username, clientID: clientID, scope: OAuthScope.userGrantable, audience: OAuthScope.apiAudience, count: 1)
        }
        guard let refresh = issued.first else { throw TestSetupError("no refresh token issued") }
        let answer = try await client.postForm("oauth/token", [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", clientID),
        ])
        guard answer.status == 200, let access = answer.json["access_token"], let next = answer.json["refresh_token"] else {
            throw TestSetupError("refresh answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (access, next)
    }

    /// The widgets' access token: the host's `access` exchanged for a scoped extension grant
    /// (RFC 8693), whose refresh token is then redeemed, as a widget does in direct mode.
    func widgetsToken(exchanging access: String) async throws -> String {
        let exchanged = try await client.postForm("oauth/token", [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("client_id", ServerAdministration.demoClientID),
            ("subject_token", access), ("subject_token_type", TokenTypeIdentifier.accessToken.rawValue),
            ("requested_token_type", TokenTypeIdentifier.refreshToken.rawValue),
        ])
        guard exchanged.status == 200, let refresh = exchanged.json["refresh_token"] else {
            throw TestSetupError("the exchange answered \(exchanged.status): \(String(decoding: exchanged.body, as: UTF8.self))")
        }
        let answer = try await client.postForm("oauth/token", [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", ServerAdministration.demoClientID),
        ])
        guard answer.status == 200, let token = answer.json["access_token"] else {
            throw TestSetupError("the extension refresh answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return token
    }

    /// The stored row of the approval `item`.
    func item(_ item: String) async throws -> ActionableItem {
        try await database.withStorage { storage in
            guard let found = try await storage.actions.item(at: ItemAddress(destination: Self.approvals.destination, entitySet: Self.approvals.entitySet, item: item))
            else { throw TestSetupError("no approval \(item)") }
            return found
        }
    }

    /// The path of `action` on the approval `item`.
    static func path(_ item: String, _ action: ItemAction) -> String {
        APIPath.itemAction(ItemAddress(destination: approvals.destination, entitySet: approvals.entitySet, item: item), action: action)
    }

    /// The URL a step-up proof for `action` on `item` names.
    static func url(_ item: String, _ action: ItemAction) -> String {
        APIPath.absolute(path(item, action), issuer: InProcessServer.issuer)
    }

    /// `POST`s `action` on the approval `item` with `token`, the key and `If-Match` given (each
    /// left out when `nil`), and any `extra` headers.
    func act(
        _ action: ItemAction, on item: String, token: String?, key: String?, ifMatch: String?, extra: [String: String] = [:],
        body: Data = Data()
    ) async throws -> HTTPTestResponse {
        var headers = extra
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let key { headers[ItemActionRules.idempotencyKeyHeader] = key }
        if let ifMatch { headers["If-Match"] = ifMatch }
        return try await client.post(Self.path(item, action), body: body, contentType: "application/json", headers: headers)
    }

    /// Creates the user `username` and, unless it exists, the OAuth app `clientID`.
    func create(user username: String, app clientID: String? = nil) async throws {
        try await database.withStorage { storage in
            let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: demo.clock)
            _ = try await admin.createUser(username: username, password: "a long enough password")
            if let clientID {
                try await admin.createApp(
                    clientID: clientID, name: clientID, redirectURIs: ["\(clientID)://cb"], urlScheme: clientID, securityMode: .oauth,
                    ssoEnabled: false)
            }
        }
    }

    /// Replaces the approvals' rules with `change` applied to the demo's.
    func setApprovals(_ change: (inout ActionableSet) -> Void) async throws {
        var approvals = ServerAdministration.demoApprovals
        change(&approvals)
        try await database.withStorage { storage in
            try await ServerAdministration(database: storage, clock: demo.clock).setActionable(approvals)
        }
    }

    /// A fresh idempotency key.
    static func newKey() -> String {
        UUID().uuidString.lowercased()
    }

    /// The demo app's audit lines about actions and step-up keys, oldest first.
    func auditLines() async throws -> [AuditEvent] {
        try await database.withStorage { storage in
            try await storage.audit.auditEvents(clientID: ServerAdministration.demoClientID, limit: 100)
                .filter { $0.kind.hasPrefix("action.") || $0.kind.hasPrefix("stepup.") }
                .sorted { $0.id < $1.id }
        }
    }
}
