import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The per-user limit on item actions, played on the server's manual clock.
@Suite("Item action rate limit")
struct ActionRateLimitTests {
    @Test("past the burst a user gets 429 with Retry-After, and is let through once the clock moves on; another user is not limited")
    func aUserIsLimited() async throws {
        try await ActionFixture.withServer(.sqlite, configure: { $0.actionRateLimit = RateLimitPolicy(requestsPerSecond: 0.5, burst: 3) }) { fixture in
            let (token, _) = try await fixture.signIn()
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            for _ in 0..<3 {
                // Unknown items: each request counts, whatever its answer.
                #expect(try await fixture.act(.approve, on: "PR-9999", token: token, key: ActionFixture.newKey(), ifMatch: etag).status == 404)
            }
            let limited = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: etag)
            #expect(limited.status == 429 && limited.json["error"] == "rate_limited" && limited.header("Retry-After") == "2")
            #expect(try await fixture.item(ActionFixture.lowValue).status == "pending")

            try await fixture.database.withStorage { storage in
                _ = try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.demo.clock)
                    .createUser(username: "ada", password: "ada-password")
            }
            let (other, _) = try await fixture.signIn(as: "ada")
            #expect(try await fixture.act(.approve, on: "PR-9999", token: other, key: ActionFixture.newKey(), ifMatch: etag).status != 429,
                    "the limit is the user's and the app's, not everyone's")

            fixture.demo.clock.advance(by: .seconds(2))
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: etag).status == 200)
        }
    }
}
