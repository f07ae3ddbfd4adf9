import Foundation
import SQLKit
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// The storage API behaves the same on SQLite and PostgreSQL.
@Suite("Storage")
struct StorageTests {
    @Test("migrations apply once and are idempotent on restart", arguments: TestBackend.allCases)
    func migrationsAreIdempotentOnRestart(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let again = try await Migrator(connector: storage.connector, logger: LogCapture.discarding).migrate()
                #expect(again.isEmpty)
            }
            // A second start on the same database applies nothing and keeps one row per version.
            let versions = try await database.withStorage { storage in
                try await storage.connector.withConnection { db in
                    try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all().map { try $0.decode(column: "version", as: Int.self) }
                }
            }
            #expect(versions == ServerMigrations.all.map(\.version))
        }
    }

    @Test("two servers starting at once migrate once", arguments: TestBackend.allCases)
    func concurrentMigrationsApplyEachVersionOnce(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let connector: any DatabaseConnector = switch database.location {
                        case .sqlite(let path): try await SQLiteConnector(path: path, logger: LogCapture.discarding)
                        case .postgres(let url): try await PostgresConnector(url: url, logger: LogCapture.discarding)
                        }
                        do {
                            let versions = try await Migrator(connector: connector, logger: LogCapture.discarding).migrate()
                            await connector.shutdown()
                            return versions
                        } catch {
                            await connector.shutdown()
                            throw error
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
            }
            #expect(applied.sorted() == ServerMigrations.all.map(\.version))
        }
    }

    @Test("a database from a newer server is refused", arguments: TestBackend.allCases)
    func unknownMigrationIsRefused(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                try await storage.connector.withConnection { db in
                    try await db.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)").run()
                }
            }
            await #expect(throws: StorageError.unknownMigration(version: 999)) {
                _ = try await database.open()
            }
        }
    }

    @Test("users, apps and API keys are created and found", arguments: TestBackend.allCases)
    func usersAppsAndAPIKeysRoundTrip(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10))
                let created = try await admin.createUser(username: "grace", password: "hopper-cobol-1959")
                let found = try #require(try await storage.accounts.user(named: "grace"))
                #expect(found == created)
                #expect(try admin.passwordHasher.verify("hopper-cobol-1959", against: found.passwordHash))
                #expect(try !admin.passwordHasher.verify("hopper-cobol-1960", against: found.passwordHash))
                #expect(try await storage.accounts.user(named: "nobody") == nil)
                await #expect(throws: AdminError.storage(.alreadyExists("user \"grace\""))) {
                    try await admin.createUser(username: "grace", password: "another-password")
                }

                let app = try await admin.createApp(
                    clientID: "sales", name: "Sales", redirectURIs: ["sales://cb", "https://sales.example.com/cb"],
                    urlScheme: "sales", securityMode: .apiKey, ssoEnabled: false)
                #expect(try await storage.apps.app(clientID: "sales") == app)
                #expect(try await storage.apps.app(clientID: "unknown") == nil)
                await #expect(throws: AdminError.storage(.alreadyExists("app \"sales\""))) {
                    try await admin.createApp(clientID: "sales", name: "Again", redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                }

                let key = try await admin.createAPIKey(clientID: "sales")
                #expect(key.hasPrefix("tdk_"))
                let record = try #require(try await storage.apps.apiKey(hash: SecretToken.hash(key)))
                #expect(record.clientID == "sales")
                #expect(record.revokedAt == nil)
                #expect(try await storage.apps.apiKey(hash: SecretToken.hash(key + "x")) == nil)
                await #expect(throws: AdminError.unknownApp("missing")) {
                    _ = try await admin.createAPIKey(clientID: "missing")
                }
            }
        }
    }

    @Test("server keys are created once and shared", arguments: TestBackend.allCases)
    func serverKeysAreStableAcrossStarts(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let first = try await database.withStorage { try await ServerKeys.load(from: $0.serverKeys, secret: .forTests) }
            let second = try await database.withStorage { try await ServerKeys.load(from: $0.serverKeys, secret: .forTests) }
            #expect(first.sealingKey == second.sealingKey)
            #expect(first.signingKey.rawRepresentation == second.signingKey.rawRepresentation)
        }
    }

    @Test("secrets are stored only hashed", arguments: TestBackend.allCases)
    func secretsAreNeverStoredInPlainText(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let password = "plaintext-password-\(UUID().uuidString)"
            let secrets: [String] = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10))
                try await admin.createUser(username: "linus", password: password)
                let apiKey = try await admin.createAPIKey(clientID: fixture.clientID)
                let first = try await fixture.issue(now: TokenFixture.start)
                // Inside the grace window the successor is stored, but only sealed.
                let successor = try await fixture.service(grace: .seconds(60)).redeem(
                    token: first.value, clientID: fixture.clientID, now: TokenFixture.start.adding(.seconds(1)))
                #expect(try await fixture.sealedSuccessor(of: first.value) != nil)
                return [password, apiKey, first.value, successor.refreshToken.value]
            }
            let stored = try await DatabaseContents.everything(in: database)
            #expect(!stored.isEmpty)
            for secret in secrets {
                #expect(!DatabaseContents.bytes(stored, contain: secret), "a secret is stored in plain text")
            }
            // Nor the tokens' random bodies without their prefixes.
            for token in secrets.dropFirst() {
                #expect(!DatabaseContents.bytes(stored, contain: String(token.dropFirst(4))))
            }
            #expect(DatabaseContents.bytes(stored, contain: SecretToken.hash(secrets[2])), "the refresh token's hash should be stored")
        }
    }
}
