import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// RFC 8693 token exchange is bounded: one live extension grant per user grant and audience, and
/// never a live child of a dead parent.
@Suite("Token exchange limits")
struct TokenExchangeLimitTests {
    @Test("a second exchange revokes the first extension grant", arguments: TestBackend.allCases)
    func secondExchangeRevokesTheFirst(backend: TestBackend) async throws {
        try await GrantFixture.withServer(backend) { fixture, client in
            let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
            let first = try #require(try await fixture.extensionRefreshToken(client, exchanging: user.access))
            let second = try #require(try await fixture.extensionRefreshToken(client, exchanging: user.access))

            let stale = try await fixture.flow.refresh(client, first)
            #expect(stale.status == 400)
            #expect(stale.json["error"] == "invalid_grant")
            #expect(try await fixture.flow.refresh(client, second).status == 200)
            // The user's own grant is untouched.
            #expect(try await fixture.flow.refresh(client, user.refresh).status == 200)
        }
    }

    @Test("an exchange racing the parent's revocation never leaves a live child", arguments: TestBackend.allCases)
    func exchangeRacingRevocationLeavesNoLiveChild(backend: TestBackend) async throws {
        let iterations = 40
        try await GrantFixture.withServer(backend, grants: iterations) { fixture, client in
            var exchanged = 0
            for token in fixture.refreshTokens {
                let user = try await fixture.tokens(client, from: token)
                async let child = fixture.extensionRefreshToken(client, exchanging: user.access)
                async let revoked = fixture.revoke(client, user.refresh)
                let (childToken, revocation) = try await (child, revoked)
                #expect(revocation.status == 200)
                guard let childToken else { continue }
                exchanged += 1
                let refresh = try await fixture.flow.refresh(client, childToken)
                #expect(refresh.status == 400, "a child of a revoked grant still refreshes")
                #expect(try await fixture.flow.introspect(client, childToken)["active"] == "0")
            }
            print("exchanges that won the race: \(exchanged) of \(iterations)")
        }
    }

    @Test("an extension grant dies with its parent's revocation", arguments: TestBackend.allCases)
    func childDiesWithItsRevokedParent(backend: TestBackend) async throws {
        try await GrantFixture.withServer(backend) { fixture, client in
            let user = try await fixture.tokens(client, from: fixture.refreshTokens[0])
            let child = try #require(try await fixture.extensionRefreshToken(client, exchanging: user.access))
            #expect(try await fixture.revoke(client, user.refresh).status == 200)
            #expect(try await fixture.flow.refresh(client, child).json["error"] == "invalid_grant")
            // Nor can the still-unexpired access token of the dead grant start a new one.
            #expect(try await fixture.extensionRefreshToken(client, exchanging: user.access) == nil)
        }
    }
}
