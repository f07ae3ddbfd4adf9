import Foundation
import TandemProtocol
import TandemServer
import Testing
import TandemServerTestSupport

/// `/oauth/introspect` answers resource servers only, and only about tokens of their audiences.
@Suite("Introspection access")
struct IntrospectionAccessTests {
    @Test("an app's API key that is not a resource server's is refused", arguments: TestBackend.allCases)
    func onlyResourceServersMayIntrospect(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await GrantFixture.seed(database)
            let kioskKey = try await database.withStorage { storage in
                let admin = ServerAdministration(storage: storage)
                try await admin.createApp(
                    clientID: "kiosk", name: "Kiosk", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
                return try await admin.createAPIKey(clientID: "kiosk")
            }
            try await fixture.flow.test { client in
                let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
                let refused = try await client.postForm("oauth/introspect", [("token", user.access)], headers: ["X-API-Key": kioskKey])
                #expect(refused.status == 401)
                #expect(refused.json["error"] == "invalid_client")
                #expect(refused.json["active"] == nil)
                // The registered resource server still gets its answer.
                #expect(try await fixture.flow.introspect(client, user.access)["active"] == "1")
            }
        }
    }

    @Test("a resource server sees tokens of other audiences as inactive", arguments: TestBackend.allCases)
    func resourceServerSeesOnlyItsAudience(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await GrantFixture.seed(database)
            let apiOnlyKey = try await database.withStorage { storage in
                let admin = ServerAdministration(storage: storage)
                try await admin.createApp(
                    clientID: "api-only", name: "API only", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
                try await admin.setResourceServer(clientID: "api-only", audiences: [OAuthScope.apiAudience])
                return try await admin.createAPIKey(clientID: "api-only")
            }
            try await fixture.flow.test { client in
                let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
                let response = try await fixture.flow.exchange(client, user.access, [("requested_token_type", TokenTypeIdentifier.refreshToken.rawValue)])
                let extensionAccess = try #require(response.json["access_token"])
                let extensionRefresh = try #require(response.json["refresh_token"])
                func introspect(_ token: String) async throws -> HTTPTestResponse {
                    try await client.postForm("oauth/introspect", [("token", token)], headers: ["X-API-Key": apiOnlyKey])
                }
                #expect(try await introspect(user.access).json["active"] == "1")
                #expect(try await introspect(user.refresh).json["active"] == "1")
                let foreign = try await introspect(extensionAccess)
                #expect(foreign.status == 200)
                #expect(String(decoding: foreign.body, as: UTF8.self) == #"{"active":false}"#)
                #expect(try await introspect(extensionRefresh).json["active"] == "0")
            }
        }
    }
}
