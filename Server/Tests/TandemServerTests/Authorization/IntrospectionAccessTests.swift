import Foundation
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// `/oauth/introspect` answers resource servers only, and only about tokens of their audiences.
@Suite("Introspection access")
struct IntrospectionAccessTests {
    @Test("an app's API key that is not a resource server's is refused", arguments: TestBackend.allCases)
    func onlyResourceServersMayIntrospect(backend: TestBackend) async throws {
        try await GrantFixture.withServer(backend) { fixture, client in
            let kioskKey = try await Self.apiKeyApp("kiosk", of: fixture, resourceAudiences: nil)
            let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
            let refused = try await client.postForm("oauth/introspect", [("token", user.access)], headers: ["X-API-Key": kioskKey])
            #expect(refused.status == 401)
            #expect(refused.json["error"] == "invalid_client")
            #expect(refused.json["active"] == nil)
            // The registered resource server still gets its answer.
            #expect(try await fixture.flow.introspect(client, user.access)["active"] == "1")
        }
    }

    @Test("a resource server sees tokens of other audiences as inactive", arguments: TestBackend.allCases)
    func resourceServerSeesOnlyItsAudience(backend: TestBackend) async throws {
        try await GrantFixture.withServer(backend) { fixture, client in
            let apiOnlyKey = try await Self.apiKeyApp("api-only", of: fixture, resourceAudiences: [OAuthScope.apiAudience])
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

    /// Registers an API-key app (a resource server for `resourceAudiences`, if any) and returns its key.
    private static func apiKeyApp(_ clientID: String, of fixture: GrantFixture, resourceAudiences: Set<String>?) async throws -> String {
        try await fixture.flow.database.withStorage { storage in
            let admin = ServerAdministration(database: storage)
            try await admin.createApp(
                clientID: clientID, name: clientID, redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
            try await admin.setResourceServer(clientID: clientID, audiences: resourceAudiences)
            return try await admin.createAPIKey(clientID: clientID)
        }
    }
}
