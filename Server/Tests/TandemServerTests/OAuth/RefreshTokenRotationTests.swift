import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// Refresh-token rotation, the grace window and reuse detection, on SQLite and PostgreSQL.
@Suite("Refresh-token rotation")
struct RefreshTokenRotationTests {
    @Test("rotation returns a new token; replaying the old one after the grace window revokes the family", arguments: TestBackend.allCases)
    func reuseAfterGraceRevokesTheFamily(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let service = try fixture.service(grace: .seconds(2))
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                let second = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(1)))
                #expect(second.refreshToken.value != first.value)
                #expect(second.refreshToken.value.hasPrefix("tdr_"))
                #expect(!second.isGraceReplay)
                #expect(second.family.userID == fixture.user.id)
                // The successor rotates normally.
                let third = try await service.redeem(token: second.refreshToken.value, clientID: fixture.clientID, now: start.adding(.seconds(10)))
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 3)

                // The first token, replayed long after its grace window: reuse.
                await #expect(throws: TokenError.invalidGrant(.reused)) {
                    _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(20)))
                }
                // The whole family is dead, including the newest token.
                await #expect(throws: TokenError.invalidGrant(.familyRevoked)) {
                    _ = try await service.redeem(token: third.refreshToken.value, clientID: fixture.clientID, now: start.adding(.seconds(21)))
                }
                #expect(try await storage.tokens.family(ofTokenHash: SecretToken.hash(first.value))?.revokedAt != nil)
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 3)

                // Another family of the same user is untouched.
                let other = try await fixture.issue(now: start.adding(.seconds(21)))
                _ = try await service.redeem(token: other.value, clientID: fixture.clientID, now: start.adding(.seconds(22)))
            }
        }
    }

    @Test("a retry inside the grace window gets the identical successor, erased after the window", arguments: TestBackend.allCases)
    func graceRetryReturnsTheSameSuccessor(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let service = try fixture.service(grace: .seconds(5))
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                let winner = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start)
                let retry = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(4)))
                #expect(retry.refreshToken == winner.refreshToken)
                #expect(retry.isGraceReplay)
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 2)
                #expect(try await fixture.sealedSuccessor(of: first.value) != nil)

                // The sweep erases it once the window has passed…
                #expect(try await storage.tokens.eraseExpiredSealedSuccessors(now: start.adding(.seconds(4))) == 0)
                #expect(try await storage.tokens.eraseExpiredSealedSuccessors(now: start.adding(.seconds(5))) == 1)
                #expect(try await fixture.sealedSuccessor(of: first.value) == nil)
                // …and a late retry is reuse, not a second copy.
                await #expect(throws: TokenError.invalidGrant(.reused)) {
                    _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(6)))
                }
            }
        }
    }

    @Test("a late retry erases the sealed successor on read", arguments: TestBackend.allCases)
    func lateRetryErasesTheSealedSuccessor(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let service = try fixture.service(grace: .seconds(1))
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start)
                #expect(try await fixture.sealedSuccessor(of: first.value) != nil)
                await #expect(throws: TokenError.invalidGrant(.reused)) {
                    _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(2)))
                }
                #expect(try await fixture.sealedSuccessor(of: first.value) == nil)
            }
        }
    }

    @Test("50 concurrent redemptions inside the grace window all get the one successor", arguments: TestBackend.allCases)
    func concurrentRedemptionsShareOneSuccessor(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let service = try fixture.service(grace: .seconds(30))
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                let outcomes = await Self.redeemConcurrently(50, token: first.value, clientID: fixture.clientID, service: service, now: start)
                let successors = Set(outcomes.compactMap { try? $0.get().refreshToken.value })
                #expect(outcomes.allSatisfy { (try? $0.get()) != nil }, "every caller inside the window succeeds")
                #expect(successors.count == 1)
                #expect(outcomes.filter { (try? $0.get())?.isGraceReplay == false }.count == 1, "exactly one winner")
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 2, "exactly one successor row")
                // The shared successor works.
                let successor = try #require(successors.first)
                _ = try await service.redeem(token: successor, clientID: fixture.clientID, now: start.adding(.seconds(1)))
            }
        }
    }

    @Test("50 concurrent redemptions without a grace window: one wins, 49 get invalid_grant", arguments: TestBackend.allCases)
    func concurrentRedemptionsWithoutGraceHaveOneWinner(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let service = try fixture.service(grace: .zero)
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                let outcomes = await Self.redeemConcurrently(50, token: first.value, clientID: fixture.clientID, service: service, now: start)
                let winners = outcomes.compactMap { try? $0.get() }
                #expect(winners.count == 1)
                let refusals = outcomes.compactMap { outcome -> TokenError? in
                    guard case .failure(let error) = outcome else { return nil }
                    return error
                }
                #expect(refusals.count == 49)
                #expect(refusals.allSatisfy {
                    if case .invalidGrant = $0 { return true }
                    return false
                })
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 2, "exactly one successor row")
                // With no window, the losers were replays: strict reuse detection revoked the family.
                #expect(try await storage.tokens.family(ofTokenHash: SecretToken.hash(first.value))?.revokedAt != nil)
                #expect(try await fixture.sealedSuccessor(of: first.value) == nil, "nothing sealed without a window")
            }
        }
    }

    @Test("a token redeemed by another client, an expired token or garbage changes nothing", arguments: TestBackend.allCases)
    func refusalsWriteNothing(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                try await ServerAdministration(database: storage).createApp(
                    clientID: "intruder", name: "Intruder", redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                let service = try fixture.service(grace: .seconds(5))
                let start = TokenFixture.start
                let first = try await fixture.issue(now: start)
                await #expect(throws: TokenError.invalidGrant(.wrongClient)) {
                    _ = try await service.redeem(token: first.value, clientID: "intruder", now: start)
                }
                await #expect(throws: TokenError.invalidGrant(.unknownToken)) {
                    _ = try await service.redeem(token: "tdr_" + String(first.value.dropFirst(4).reversed()), clientID: fixture.clientID, now: start)
                }
                await #expect(throws: TokenError.invalidGrant(.unknownToken)) {
                    _ = try await service.redeem(token: "not-a-token", clientID: fixture.clientID, now: start)
                }
                await #expect(throws: TokenError.invalidGrant(.expired)) {
                    _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(service.lifetime))
                }
                #expect(try await fixture.tokenCount(familyID: first.familyID) == 1)
                #expect(try await storage.tokens.family(ofTokenHash: SecretToken.hash(first.value))?.revokedAt == nil)
                // The rightful client still redeems it.
                _ = try await service.redeem(token: first.value, clientID: fixture.clientID, now: start.adding(.seconds(1)))
            }
        }
    }

    /// Redeems `token` `count` times at once, all at `now`.
    static func redeemConcurrently(
        _ count: Int, token: String, clientID: String, service: RefreshTokenService, now: Timestamp
    ) async -> [Result<Redemption, TokenError>] {
        await withTaskGroup(of: Result<Redemption, TokenError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(TokenError) {
                        return .success(try await service.redeem(token: token, clientID: clientID, now: now))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }
}
