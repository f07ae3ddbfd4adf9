import Foundation
import JWTKit
import TandemServer
import Testing

/// `POST /oauth/token` and `GET /health` over real HTTP against a real `tandem serve` process.
@Suite("Token endpoint over HTTP")
struct TokenEndpointTests {
    @Test("a refresh returns a rotated token and a signed access token with the grant's claims")
    func refreshReturnsRotatedTokenAndSignedJWT() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                return (fixture, try await fixture.issue())
            }
            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url)
            let client = HTTPTestClient()
            let response = try await client.postForm(server.baseURL, "oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", token.value), ("client_id", fixture.clientID),
            ])
            try await server.stop()
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let body = response.json
            #expect(body["token_type"] == "Bearer")
            #expect(body["expires_in"] == "300")
            #expect(body["scope"] == "read write")
            let successor = try #require(body["refresh_token"])
            #expect(successor.hasPrefix("tdr_") && successor != token.value)

            let jwt = try #require(body["access_token"])
            let claims = try await database.withStorage { storage in
                let keys = try await ServerKeys.load(from: storage)
                return try await AccessTokenSigner(signingKey: keys.signingKey, issuer: "https://auth.tandem.test").verify(jwt)
            }
            #expect(claims.iss.value == "https://auth.tandem.test")
            #expect(claims.sub.value == fixture.user.id)
            #expect(claims.aud.value == ["tandem"])
            #expect(claims.clientID == fixture.clientID)
            #expect(claims.scope == "read write")
            #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == 300)
            // NumericDates are whole seconds in the encoded token.
            let payload = try #require(jwt.split(separator: ".").dropFirst().first)
            var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64.append("=") }
            let payloadData = try #require(Data(base64Encoded: base64))
            let object = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
            #expect(object["exp"] is Int && object["iat"] is Int, "\(object)")
        }
    }

    @Test("bad requests get RFC 6749 errors, write nothing, and the server keeps serving")
    func badInputIsRefusedAndNothingIsWritten() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                try await ServerAdministration(storage: storage).createApp(
                    clientID: "other-app", name: "Other", redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                return (fixture, try await fixture.issue())
            }
            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url)
            let client = HTTPTestClient()
            let base = server.baseURL
            let form = { (fields: String) in Data(fields.utf8) }
            let cases: [(name: String, body: Data, contentType: String, status: Int, error: String)] = [
                ("broken percent escape", form("grant_type=refresh_token&refresh_token=%ZZ&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("repeated parameter", form("grant_type=refresh_token&grant_type=refresh_token&refresh_token=\(token.value)&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("not a form", form("{\"grant_type\":\"refresh_token\"}"), "application/json", 400, "invalid_request"),
                ("not UTF-8", Data([0x67, 0x3D, 0xFF, 0xFE]), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("no grant type", form("refresh_token=\(token.value)&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("unknown grant type", form("grant_type=password&username=ada&password=x&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "unsupported_grant_type"),
                ("missing refresh_token", form("grant_type=refresh_token&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("missing client_id", form("grant_type=refresh_token&refresh_token=\(token.value)"), "application/x-www-form-urlencoded", 400, "invalid_request"),
                ("unknown client", form("grant_type=refresh_token&refresh_token=\(token.value)&client_id=nobody"), "application/x-www-form-urlencoded", 401, "invalid_client"),
                ("another client's token", form("grant_type=refresh_token&refresh_token=\(token.value)&client_id=other-app"), "application/x-www-form-urlencoded", 400, "invalid_grant"),
                ("unknown token", form("grant_type=refresh_token&refresh_token=tdr_forged&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_grant"),
                ("oversized body", form("grant_type=refresh_token&padding=" + String(repeating: "a", count: 70 * 1024)), "application/x-www-form-urlencoded", 413, "invalid_request"),
            ]
            for testCase in cases {
                let response = try await client.post(base, "oauth/token", body: testCase.body, contentType: testCase.contentType)
                #expect(response.status == testCase.status, "\(testCase.name)")
                #expect(response.json["error"] == testCase.error, "\(testCase.name)")
                #expect(response.json["error_description"]?.isEmpty == false, "\(testCase.name)")
                #expect(response.header("Cache-Control") == "no-store", "\(testCase.name)")
                let health = try await client.get(base, "health")
                #expect(health.status == 200, "server still serves after \(testCase.name)")
            }
            let streamed = try await client.postStreamed(base, "oauth/token", body: Data(("grant_type=refresh_token&padding=" + String(repeating: "b", count: 200 * 1024)).utf8))
            #expect(streamed.status == 413, "an oversized chunked body is cut off while reading")
            #expect(try await client.get(base, "health").status == 200)
            try await server.stop()

            // Nothing was written: the token is unrotated, its family live, and it still redeems.
            try await database.withStorage { storage in
                let reopened = fixture.on(storage)
                #expect(try await reopened.tokenCount(familyID: token.familyID) == 1)
                #expect(try await storage.family(ofTokenHash: SecretToken.hash(token.value))?.revokedAt == nil)
                _ = try await reopened.service(grace: .zero).redeem(token: token.value, clientID: fixture.clientID)
            }
        }
    }

    @Test("health reports ok, and 503 when the database goes away")
    func healthFollowsTheDatabase() async throws {
        try await TestBackend.postgres.withDatabase { database in
            try await database.withStorage { _ in }
            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url)
            let client = HTTPTestClient()
            let healthy = try await client.get(server.baseURL, "health")
            #expect(healthy.status == 200)
            #expect(healthy.json == ["status": "ok", "database": "ok"])

            await database.drop()
            let unhealthy = try await client.get(server.baseURL, "health")
            #expect(unhealthy.status == 503)
            #expect(unhealthy.json["database"] == "unavailable")
            let status = try await server.stop()
            #expect(status == 0, "graceful shutdown on SIGTERM")
        }
    }

    @Test("without --database the server creates and migrates tandem.sqlite in the user's data directory")
    func defaultDatabaseIsCreatedOnFirstStart() async throws {
        let home = try TemporaryDirectory()
        let dataHome = home.url.appendingPathComponent("xdg-data")
        let server = try await ServerProcess(
            database: nil, graceSeconds: 5, scratch: home.url, environment: ["XDG_DATA_HOME": dataHome.path, "HOME": home.url.path])
        let health = try await HTTPTestClient().get(server.baseURL, "health")
        try await server.stop()
        #expect(health.status == 200)
        let file = dataHome.appendingPathComponent("tandem/tandem.sqlite").path
        #expect(FileManager.default.fileExists(atPath: file))
        let location = DatabaseLocation.sqlite(path: file)
        let storage = try await SQLServerStorage.open(location, logger: TestLogger.quiet)
        let applied = try await Migrator(connector: storage.connector, logger: TestLogger.quiet).migrate()
        await storage.connector.shutdown()
        #expect(applied.isEmpty, "the server already migrated it")
    }

    @Test("neither the logs nor the database contain a token in plain text")
    func logsAndDatabaseHoldNoPlainSecrets() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, tokens) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                var tokens: [String] = []
                for _ in 0..<3 { tokens.append(try await fixture.issue().value) }
                return (fixture, tokens)
            }
            let server = try await ServerProcess(
                database: database.argument, graceSeconds: 5, scratch: database.directory.url, environment: ["TANDEM_LOG_LEVEL": "trace"])
            let client = HTTPTestClient()
            var secrets = tokens
            for token in tokens {
                let first = try await client.postForm(server.baseURL, "oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", fixture.clientID),
                ])
                #expect(first.status == 200)
                secrets += [first.json["refresh_token"], first.json["access_token"]].compactMap { $0 }
                // A grace retry, a wrong client and a reuse after revocation: all logged, none leaking.
                _ = try await client.postForm(server.baseURL, "oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", fixture.clientID),
                ])
                _ = try await client.postForm(server.baseURL, "oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "nobody"),
                ])
            }
            try await server.stop()
            let logs = await server.output()
            #expect(logs.contains("refresh token redeemed"), "the server logged its work")
            let stored = try await DatabaseContents.everything(in: database)
            for secret in secrets {
                #expect(!logs.contains(secret), "a secret appears in the logs")
                #expect(!logs.contains(String(secret.dropFirst(4))), "a secret's body appears in the logs")
                #expect(!DatabaseContents.bytes(stored, contain: secret), "a secret is stored in plain text")
            }
        }
    }
}
