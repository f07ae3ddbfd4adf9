import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// Revocation reaches every server instance sharing a database within the revocation refresh
/// interval (1 s): an API key revoked on one instance is refused on another that had it cached,
/// and an app switched to SSO off on one is refused SSO on the other. Two instances in process on
/// one database and one clock, so the second is the test's to move, however slow the machine.
@Suite("Revocation across instances")
struct CrossInstanceRevocationTests {
    @Test("an API key revoked on instance A is refused on instance B within one second", arguments: TestBackend.allCases)
    func apiKeyRevocation(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let key = try await database.withStorage { storage in
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                try await admin.createApp(
                    clientID: "kiosk", name: "Kiosk", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
                return try await admin.createAPIKey(clientID: "kiosk")
            }
            try await fixture.test { instanceA in
                try await fixture.test { instanceB in
                    #expect(try await instanceB.get("v1/destinations", headers: ["X-API-Key": key]).status == 200, "B has the key cached")
                    try await database.withStorage { storage in
                        let record = try #require(try await storage.apps.apiKeys(clientID: "kiosk").first)
                        #expect(try await storage.apps.revokeAPIKey(id: record.id, clientID: "kiosk", now: Timestamp(fixture.clock.now)) != nil)
                    }
                    #expect(try await instanceA.get("v1/destinations", headers: ["X-API-Key": key]).status == 401, "A refuses it at once")
                    fixture.clock.advance(by: .milliseconds(999))
                    _ = try await instanceB.get("v1/destinations", headers: ["X-API-Key": key])
                    fixture.clock.advance(by: .milliseconds(1))
                    #expect(try await instanceB.get("v1/destinations", headers: ["X-API-Key": key]).status == 401, "B refuses it within 1 s")
                }
            }
        }
    }
}
