import Crypto
import Foundation
import HummingbirdTesting
import JWTKit
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// A database seeded with the demo (user, apps, API key, `sales` data), and access tokens signed
/// with its server key as `tandem serve` would sign them, for the `/v1` endpoint tests. The seed,
/// the tokens and the server run on the fixture's ``clock``, which only the test moves.
struct BusinessDataFixture: Sendable {
    /// The issuer the server is built with.
    static let issuer = InProcessServer.issuer

    /// The demo user.
    let user: UserRecord
    /// The kiosk app's API key.
    let apiKey: String
    /// The server's keys.
    let keys: ServerKeys
    /// What time it is for the seed, the tokens and the server.
    let clock: ManualClock

    /// Seeds `storage` with the demo and, for API-key refusal tests, an OAuth-mode app's key.
    static func seed(_ storage: ServerDatabase, clock: ManualClock = ManualClock()) async throws -> BusinessDataFixture {
        // A cheap scrypt cost: these tests are about resources, not password hashing.
        let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: clock)
        let report = try await admin.seedDemo(password: "demo-password")
        guard let apiKey = report.apiKey else { throw TestSetupError("seed-demo made no API key") }
        guard let user = try await storage.accounts.user(named: ServerAdministration.demoUsername) else { throw TestSetupError("no demo user") }
        return BusinessDataFixture(
            user: user, apiKey: apiKey, keys: try await ServerKeys.load(from: storage.serverKeys, secret: .forTests, clock: clock), clock: clock)
    }

    /// A signed access token for the demo app.
    ///
    /// - Parameters:
    ///   - scope: The granted scope.
    ///   - audience: The token's audience.
    ///   - issuedAt: The issue time (the token lives five minutes from it; default the clock's time).
    ///   - issuer: The `iss` claim.
    ///   - userID: The user it is for (default the demo user).
    func accessToken(
        scope: String = OAuthScope.userDefault, audience: String = OAuthScope.apiAudience,
        issuedAt: Timestamp? = nil, issuer: String = Self.issuer, userID: String? = nil
    ) async throws -> String {
        try await Self.sign(
            scope: scope, audience: audience, issuedAt: issuedAt ?? Timestamp(clock.now), issuer: issuer, key: keys.signingKey,
            userID: userID ?? user.id)
    }

    /// A token signed by a key that is not the server's.
    func accessTokenFromAnotherKey() async throws -> String {
        try await Self.sign(
            scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, issuedAt: Timestamp(clock.now), issuer: Self.issuer,
            key: P256.Signing.PrivateKey(), userID: user.id)
    }

    /// A valid token whose payload was changed afterwards (its scope widened), so its signature no longer matches.
    func tamperedAccessToken() async throws -> String {
        let genuine = try await accessToken(scope: OAuthScope.extensionGrant, audience: OAuthScope.extensionAudience)
        let parts = genuine.split(separator: ".").map(String.init)
        guard parts.count == 3, var payload = Base64URL.decode(parts[1]).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw TestSetupError("not a JWT")
        }
        payload = payload.replacingOccurrences(of: "\"scope\":\"data.read\"", with: "\"scope\":\"data.read events.write\"")
        let forged = Base64URL.encode(payload.utf8)
        return [parts[0], forged, parts[2]].joined(separator: ".")
    }

    private static func sign(scope: String, audience: String, issuedAt: Timestamp, issuer: String, key: P256.Signing.PrivateKey, userID: String) async throws -> String {
        let signer = try await AccessTokenSigner(signingKey: key, issuer: issuer)
        let family = TokenFamily(
            id: UUID().uuidString.lowercased(), clientID: ServerAdministration.demoClientID, userID: userID,
            scope: scope, audience: audience, createdAt: issuedAt, revokedAt: nil)
        return try await signer.sign(for: family, now: issuedAt)
    }

    /// Seeds a database, builds the server on it in process on the fixture's clock, runs `body`
    /// with a client for it, and shuts the server down whatever happens.
    static func withServer<Result: Sendable>(
        _ backend: TestBackend, _ setup: TestingSetup = .router,
        _ body: @Sendable @escaping (BusinessDataFixture, InProcessClient, TestDatabase) async throws -> Result
    ) async throws -> Result {
        try await backend.withDatabase { database in
            let fixture = try await database.withStorage { try await seed($0) }
            return try await InProcessServer.test(database, setup, clock: fixture.clock) { client in try await body(fixture, client, database) }
        }
    }
}
