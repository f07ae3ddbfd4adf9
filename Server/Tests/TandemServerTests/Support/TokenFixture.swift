import Foundation
@testable import TandemServer
import TandemTestSupport

/// A user and an OAuth app in a test database, and the services that issue and redeem their tokens.
struct TokenFixture: Sendable {
    /// The seeded storage.
    let storage: ServerDatabase
    /// The seeded user.
    let user: UserRecord
    /// The seeded app's client id.
    let clientID: String
    /// The server keys (created on first use, like the server does).
    let keys: ServerKeys

    /// Where the token tests' time starts: a test clock's fixed instant, which every step of a
    /// test moves from explicitly.
    static let start = Timestamp(ManualClock().now)

    /// Seeds `storage` with user `ada` and app `widget-demo`.
    static func seed(_ storage: ServerDatabase) async throws -> TokenFixture {
        // A cheap scrypt cost: these tests are about tokens, not password hashing.
        let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10))
        let user = try await admin.createUser(username: "ada", password: "correct horse battery staple")
        try await admin.createApp(
            clientID: "widget-demo", name: "Widget Demo", redirectURIs: ["widgetdemo://oauth/callback"],
            urlScheme: "widgetdemo", securityMode: .oauth, ssoEnabled: true)
        return TokenFixture(storage: storage, user: user, clientID: "widget-demo", keys: try await ServerKeys.load(from: storage.serverKeys, secret: .forTests))
    }

    /// The same fixture on another open handle of the same database (after the first was closed).
    func on(_ storage: ServerDatabase) -> TokenFixture {
        TokenFixture(storage: storage, user: user, clientID: clientID, keys: keys)
    }

    /// A refresh-token service with the given grace window and absolute grant lifetime.
    func service(grace: Duration, maxGrantLifetime: Duration = .seconds(90 * 24 * 3600)) throws -> RefreshTokenService {
        RefreshTokenService(
            tokens: storage.tokens, sealer: try SuccessorSealer(keyMaterial: keys.sealingKey), graceWindow: grace,
            maxGrantLifetime: maxGrantLifetime)
    }

    /// Issues a fresh refresh token (a new family) for the user and app at `now`.
    func issue(now: Timestamp) async throws -> RefreshToken {
        try await issue(try service(grace: .seconds(5)), now: now)
    }

    /// Issues a fresh refresh token (a new family) for the user and app through `service` at `now`.
    func issue(_ service: RefreshTokenService, now: Timestamp) async throws -> RefreshToken {
        try await service.issue(userID: user.id, clientID: clientID, scope: "read write", audience: "tandem", now: now)
    }

    /// Rows of `refresh_tokens` in the token's family.
    func tokenCount(familyID: String) async throws -> Int {
        try await storage.connector.withConnection { database in
            try await database.raw("SELECT COUNT(*) AS n FROM refresh_tokens WHERE family_id = \(bind: familyID)")
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// The sealed successor column of a token (by its plain value), to check erasure.
    func sealedSuccessor(of token: String) async throws -> Data? {
        try await storage.connector.withConnection { database in
            try await database.raw("SELECT successor_sealed FROM refresh_tokens WHERE token_hash = \(bind: SecretToken.hash(token))")
                .first()?.decode(column: "successor_sealed", as: Data?.self)
        }
    }
}
