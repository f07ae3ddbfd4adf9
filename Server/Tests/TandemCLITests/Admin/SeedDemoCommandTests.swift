import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `tandem admin seed-demo` run as a separate process.
@Suite("tandem admin seed-demo")
struct SeedDemoCommandTests {
    @Test("seeding creates the demo once; running it again changes nothing and prints no new key", arguments: TestBackend.allCases)
    func seedDemoIsIdempotent(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let db = ["--database", database.argument]
            let first = try await TandemExecutable.run(["admin", "seed-demo"] + db)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("created user demo"))
            #expect(first.stderr.contains("warning") && first.stderr.contains("demo-password"))
            #expect(first.stdout.contains("created app tandem-demo\n"))
            #expect(first.stdout.contains("created app tandem-demo-kiosk"))
            let keyLine = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("API key for tandem-demo-kiosk") })
            let apiKey = try #require(keyLine.split(separator: " ").last.map(String.init))
            #expect(apiKey.hasPrefix("tdk_"))
            #expect(first.stdout.contains("sales/SalesOrders: 240 rows written"))

            let (firstState, firstRows) = try await Self.snapshot(database)
            let second = try await TandemExecutable.run(["admin", "seed-demo", "--password", "another-password"] + db)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("user demo already exists"))
            #expect(second.stdout.contains("app tandem-demo already exists"))
            #expect(second.stdout.contains("app tandem-demo-kiosk already exists"))
            #expect(!second.stdout.contains("tdk_"), "a key is printed only when it is created")
            #expect(second.stdout.contains("sales/SalesOrders: 240 rows, unchanged"))
            let (secondState, secondRows) = try await Self.snapshot(database)
            #expect(secondState == firstState)
            #expect(secondRows == firstRows)

            try await database.withStorage { storage in
                let user = try #require(try await storage.accounts.user(named: "demo"))
                #expect(try PasswordHasher().verify("demo-password", against: user.passwordHash), "the second run kept the password")
                #expect(user.passwordHash.hasPrefix("$scrypt$ln=17,r=8,p=1$"), "OWASP's cost unless told otherwise")
                let app = try #require(try await storage.apps.app(clientID: "tandem-demo"))
                #expect(app.securityMode == .oauth && app.ssoEnabled && app.urlScheme == "tandem-demo")
                #expect(app.redirectURIs == ["tandem-demo://oauth/callback", "http://127.0.0.1/callback"])
                let kiosk = try #require(try await storage.apps.app(clientID: "tandem-demo-kiosk"))
                #expect(kiosk.securityMode == .apiKey)
                #expect(try await storage.apps.apiKey(hash: SecretToken.hash(apiKey))?.clientID == "tandem-demo-kiosk")
            }
        }
    }

    @Test("--fast-password-hashing writes cheap hashes of the right passwords and says so")
    func fastPasswordHashingIsCheapAndSaysSo() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let db = ["--database", database.argument, "--fast-password-hashing"]
            let seeded = try await TandemExecutable.run(["admin", "seed-demo"] + db)
            #expect(seeded.status == 0, "\(seeded.stderr)")
            #expect(seeded.stderr.contains("--fast-password-hashing"), "\(seeded.stderr)")
            let created = try await TandemExecutable.run(
                ["admin", "create-user", "--username", "ada"] + db, environment: ["TANDEM_PASSWORD": "a-long-password"])
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stderr.contains("--fast-password-hashing"), "\(created.stderr)")
            try await database.withStorage { storage in
                for name in ["demo", "admin", "ada"] {
                    let hash = try #require(try await storage.accounts.user(named: name)).passwordHash
                    #expect(hash.hasPrefix("$scrypt$ln=10,r=8,p=1$"), "\(name): \(hash)")
                }
                let demo = try #require(try await storage.accounts.user(named: "demo"))
                #expect(try PasswordHasher().verify("demo-password", against: demo.passwordHash), "a cheap hash is still the password's")
            }
        }
    }

    /// Row counts of the demo's tables and every stored entity row.
    private static func snapshot(_ database: TestDatabase) async throws -> ([Int], [String]) {
        try await database.withStorage { storage in
            try await storage.connector.withConnection { db in
                var counts: [Int] = []
                for table in ["users", "apps", "api_keys", "destinations", "entity_sets", "entity_rows", "app_passcode_policies"] {
                    counts.append(try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self) ?? -1)
                }
                let rows = try await db.raw("SELECT entity_set, position, data FROM entity_rows ORDER BY entity_set, position").all()
                    .map { try $0.decode(column: "data", as: String.self) }
                return (counts, rows)
            }
        }
    }
}
