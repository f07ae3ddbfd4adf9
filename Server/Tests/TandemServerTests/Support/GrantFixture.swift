import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// User grants issued straight into an ``OAuthFlowFixture``'s database (no sign-in page), and the
/// token-endpoint steps the grant tests repeat.
struct GrantFixture: Sendable {
    /// The seeded database, app, user and resource server.
    let flow: OAuthFlowFixture
    /// One first refresh token per grant issued.
    let refreshTokens: [String]

    /// Seeds `database` with ``OAuthFlowFixture`` and `grants` user grants of the OAuth app.
    static func seed(_ database: TestDatabase, grants: Int = 1) async throws -> GrantFixture {
        let flow = try await OAuthFlowFixture.seed(database)
        let tokens = try await database.withStorage { storage in
            try await ServerAdministration(database: storage, clock: flow.clock).issueRefreshTokens(
                username: OAuthFlowFixture.username, clientID: OAuthFlowFixture.clientID,
                scope: "data.read events.write offline_access", audience: OAuthScope.apiAudience, count: grants)
        }
        return GrantFixture(flow: flow, refreshTokens: tokens)
    }

    /// Seeds a database of `backend` with `grants` user grants, builds the server on it in
    /// process, and runs `body` with a client for it.
    static func withServer<Result: Sendable>(
        _ backend: TestBackend, grants: Int = 1, configure: @escaping @Sendable (inout TandemServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (GrantFixture, InProcessClient) async throws -> Result
    ) async throws -> Result {
        try await backend.withDatabase { database in
            let fixture = try await seed(database, grants: grants)
            return try await fixture.flow.test(configure: configure) { client in try await body(fixture, client) }
        }
    }

    /// Redeems `refreshToken` and returns the new access token and its successor.
    func tokens(_ client: InProcessClient, from refreshToken: String) async throws -> (access: String, refresh: String) {
        let response = try await flow.refresh(client, refreshToken)
        guard response.status == 200, let access = response.json["access_token"], let refresh = response.json["refresh_token"] else {
            throw TestSetupError("refresh answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return (access, refresh)
    }

    /// Exchanges a user access token for an extension grant and returns its refresh token, or
    /// `nil` when the exchange was refused.
    func extensionRefreshToken(_ client: InProcessClient, exchanging access: String) async throws -> String? {
        let response = try await flow.exchange(client, access, [("requested_token_type", TokenTypeIdentifier.refreshToken.rawValue)])
        return response.status == 200 ? response.json["refresh_token"] : nil
    }

    /// Revokes `token` (RFC 7009) as the OAuth app.
    func revoke(_ client: InProcessClient, _ token: String) async throws -> HTTPTestResponse {
        try await client.postForm("oauth/revoke", [("token", token), ("client_id", OAuthFlowFixture.clientID)])
    }
}
