import Foundation
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// Revocation bites at `/v1` before the access token expires: at once on the instance that
/// revoked, within the revocation list's refresh interval on every other instance.
@Suite("Revocation at the resource endpoints")
struct RevocationListTests {
    @Test("after /oauth/revoke the same unexpired access token is refused at /v1 on that instance", arguments: TestBackend.allCases)
    func revocationBitesAtOnce(backend: TestBackend) async throws {
        try await GrantFixture.withServer(backend) { fixture, client in
            let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
            let auth = ["Authorization": "Bearer \(user.access)"]
            #expect(try await client.get("v1/destinations", headers: auth).status == 200)
            #expect(try await fixture.revoke(client, user.refresh).status == 200)
            #expect(try await client.get("v1/destinations", headers: auth).status == 401)
        }
    }

    @Test("a second instance on the same database refuses it within the refresh interval", arguments: TestBackend.allCases)
    func revocationReachesAnotherInstance(backend: TestBackend) async throws {
        let interval = Duration.seconds(1)
        try await GrantFixture.withServer(backend, configure: { $0.revocationRefreshInterval = interval }) { fixture, first in
            // Both instances run on the fixture's clock, which only this test moves.
            try await InProcessServer.test(
                fixture.flow.database, clock: fixture.flow.clock, configure: { $0.revocationRefreshInterval = interval }
            ) { second in
                let user = try await fixture.tokens(first, from: fixture.refreshTokens[0])
                let auth = ["Authorization": "Bearer \(user.access)"]
                #expect(try await second.get("v1/destinations", headers: auth).status == 200)
                #expect(try await fixture.revoke(first, user.refresh).status == 200)
                fixture.flow.clock.advance(by: interval)
                #expect(try await second.get("v1/destinations", headers: auth).status == 401)
            }
        }
    }
}
