import Foundation
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// Every grant has an absolute lifetime whatever its rotations, and an extension grant never
/// outlives the user grant it was exchanged from; on SQLite and PostgreSQL, with a moved clock.
@Suite("Grant lifetimes")
struct GrantLifetimeTests {
    static let day = Duration.seconds(24 * 3600)

    @Test("rotation cannot extend a user grant past its absolute lifetime", arguments: TestBackend.allCases)
    func rotationStopsAtTheAbsoluteLifetime(backend: TestBackend) async throws {
        try await Self.withService(backend) { fixture, storage, service, start in
            let end = start.adding(Self.day * 90)
            var token = try await fixture.issue(service, now: start).value
            for day in [20, 40, 60, 80, 89] {
                token = try await service.redeem(token: token, clientID: fixture.clientID, now: start.adding(Self.day * day)).refreshToken.value
                let status = try #require(try await storage.tokens.refreshTokenStatus(hash: SecretToken.hash(token)))
                #expect(status.expiresAt <= end, "day \(day): the successor expires after the grant's end")
            }
            await #expect(throws: TokenError.invalidGrant(.expired)) {
                _ = try await service.redeem(token: token, clientID: fixture.clientID, now: end.adding(.milliseconds(1)))
            }
        }
    }

    @Test("an extension grant ends when its parent does, and its refresh fails after", arguments: TestBackend.allCases)
    func extensionGrantNeverOutlivesItsParent(backend: TestBackend) async throws {
        try await Self.withService(backend) { fixture, storage, service, start in
            let parent = try await fixture.issue(service, now: start)
            let child = try await service.issueExtensionGrant(
                parentID: parent.familyID, clientID: fixture.clientID, now: start.adding(Self.day * 80))
            let first = try #require(try await storage.tokens.refreshTokenStatus(hash: SecretToken.hash(child.refreshToken.value)))
            #expect(first.expiresAt <= start.adding(Self.day * 90))
            let renewed = try await service.redeem(
                token: child.refreshToken.value, clientID: fixture.clientID, now: start.adding(Self.day * 89))
            await #expect(throws: TokenError.invalidGrant(.expired)) {
                _ = try await service.redeem(
                    token: renewed.refreshToken.value, clientID: fixture.clientID, now: start.adding(Self.day * 90).adding(.seconds(1)))
            }
        }
    }

    @Test("an extension grant's refresh fails once its parent is revoked", arguments: TestBackend.allCases)
    func childRefreshFailsOnceItsParentIsGone(backend: TestBackend) async throws {
        try await Self.withService(backend) { fixture, storage, service, start in
            let parent = try await fixture.issue(service, now: start)
            let child = try await service.issueExtensionGrant(parentID: parent.familyID, clientID: fixture.clientID, now: start)
            try await storage.tokens.revokeFamily(id: parent.familyID, now: start.adding(.seconds(1)))
            await #expect(throws: TokenError.invalidGrant(.familyRevoked)) {
                _ = try await service.redeem(token: child.refreshToken.value, clientID: fixture.clientID, now: start.adding(.seconds(2)))
            }
            // A revoked parent cannot start a new extension grant either.
            await #expect(throws: TokenError.invalidGrant(.invalidSubjectToken)) {
                _ = try await service.issueExtensionGrant(parentID: parent.familyID, clientID: fixture.clientID, now: start.adding(.seconds(3)))
            }
        }
    }

    /// A seeded database of `backend`, a refresh-token service on it without a grace window and
    /// with a 90-day grant lifetime, and the start of the test's clock.
    private static func withService(
        _ backend: TestBackend, _ body: (TokenFixture, ServerDatabase, RefreshTokenService, Timestamp) async throws -> Void
    ) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                try await body(fixture, storage, try fixture.service(grace: .zero, maxGrantLifetime: day * 90), TokenFixture.start)
            }
        }
    }
}
