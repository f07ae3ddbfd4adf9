import Foundation
import JWTKit
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `POST /oauth/token` and `GET /health` through the server built in process.
@Suite("Token endpoint over HTTP")
struct TokenEndpointTests {
    @Test("a refresh returns a rotated token and a signed access token with the grant's claims")
    func refreshReturnsRotatedTokenAndSignedJWT() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                return (fixture, try await fixture.issue(now: TokenFixture.start))
            }
            let response = try await InProcessServer.test(database, clock: ManualClock(start: TokenFixture.start.date)) { client in
                let response = try await client.postForm("oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", token.value), ("client_id", fixture.clientID),
                ])
                return response
            }
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
                let keys = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests)
                return try await AccessTokenSigner(signingKey: keys.signingKey, issuer: "https://auth.tandem.test").verify(jwt, now: TokenFixture.start)
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
                try await ServerAdministration(database: storage).createApp(
                    clientID: "other-app", name: "Other", redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                return (fixture, try await fixture.issue(now: TokenFixture.start))
            }
            let clock = ManualClock(start: TokenFixture.start.date)
            try await InProcessServer.test(database, clock: clock) { client in
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
                    ("unknown client", form("grant_type=refresh_token&refresh_token=\(token.value)&client_id=nobody"), "application/x-www-form-urlencoded", 400, "invalid_client"),
                    ("another client's token", form("grant_type=refresh_token&refresh_token=\(token.value)&client_id=other-app"), "application/x-www-form-urlencoded", 400, "invalid_grant"),
                    ("unknown token", form("grant_type=refresh_token&refresh_token=tdr_forged&client_id=widget-demo"), "application/x-www-form-urlencoded", 400, "invalid_grant"),
                    ("oversized body", form("grant_type=refresh_token&padding=" + String(repeating: "a", count: 70 * 1024)), "application/x-www-form-urlencoded", 413, "invalid_request"),
                ]
                for testCase in cases {
                    let response = try await client.post("oauth/token", body: testCase.body, contentType: testCase.contentType)
                    #expect(response.status == testCase.status, "\(testCase.name)")
                    #expect(response.json["error"] == testCase.error, "\(testCase.name)")
                    #expect(response.json["error_description"]?.isEmpty == false, "\(testCase.name)")
                    #expect(response.header("Cache-Control") == "no-store", "\(testCase.name)")
                    let health = try await client.get("health")
                    #expect(health.status == 200, "server still serves after \(testCase.name)")
                }
            }
            // A body without a Content-Length needs a real socket.
            try await InProcessServer.test(database, .live, clock: clock) { client in
                let streamed = try await client.postStreamed("oauth/token", body: Data(("grant_type=refresh_token&padding=" + String(repeating: "b", count: 200 * 1024)).utf8))
                #expect(streamed.status == 413, "an oversized chunked body is cut off while reading")
                #expect(try await client.get("health").status == 200)
            }

            // Nothing was written: the token is unrotated, its family live, and it still redeems.
            try await database.withStorage { storage in
                let reopened = fixture.on(storage)
                #expect(try await reopened.tokenCount(familyID: token.familyID) == 1)
                #expect(try await storage.tokens.family(ofTokenHash: SecretToken.hash(token.value))?.revokedAt == nil)
                _ = try await reopened.service(grace: .zero).redeem(token: token.value, clientID: fixture.clientID, now: TokenFixture.start)
            }
        }
    }

    @Test("neither the logs nor the database contain a token in plain text")
    func logsAndDatabaseHoldNoPlainSecrets() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, tokens) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                var tokens: [String] = []
                for _ in 0..<3 { tokens.append(try await fixture.issue(now: TokenFixture.start).value) }
                return (fixture, tokens)
            }
            let capture = LogCapture()
            let secrets = try await InProcessServer.test(database, logger: capture.logger, clock: ManualClock(start: TokenFixture.start.date)) { client in
                var secrets = tokens
                for token in tokens {
                    let first = try await client.postForm("oauth/token", [
                        ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", fixture.clientID),
                    ])
                    #expect(first.status == 200)
                    secrets += [first.json["refresh_token"], first.json["access_token"]].compactMap { $0 }
                    // A grace retry, a wrong client and a reuse after revocation: all logged, none leaking.
                    _ = try await client.postForm("oauth/token", [
                        ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", fixture.clientID),
                    ])
                    _ = try await client.postForm("oauth/token", [
                        ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "nobody"),
                    ])
                }
                return secrets
            }
            let logs = capture.lines.joined(separator: "\n")
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
