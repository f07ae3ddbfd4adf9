import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// Bad input at `/oauth/authorize` and in the code grant: each gets the RFC error (or an error
/// page where redirecting would be unsafe), writes nothing, and the server keeps serving.
@Suite("Authorization bad input")
struct AuthorizationBadInputTests {
    @Test("bad authorization requests: error page or error redirect, never a code")
    func badAuthorizationRequests() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                let pkce = OAuthFlowFixture.pkce()

                // Untrusted client or redirect URI: an HTML error page, no redirect.
                for overrides in [
                    ["client_id": "nobody"], ["client_id": nil], ["redirect_uri": "widgetdemo://oauth/callback/evil"],
                    ["redirect_uri": nil], ["client_id": "resource-server"],
                ] as [[String: String?]] {
                    let response = try await browser.get(fixture.authorizeURL(challenge: pkce.challenge, overrides: overrides))
                    if overrides["client_id"] == "resource-server" {
                        // A registered API-key app has no redirect URIs, so it cannot be redirected to either.
                        #expect(response.status == 400)
                        continue
                    }
                    #expect(response.status == 400, "\(overrides)")
                    #expect(response.header("Location") == nil)
                    #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
                }

                // Errors the client should hear about go back to its redirect URI, with the state.
                let cases: [([String: String?], String)] = [
                    (["code_challenge_method": "plain"], "invalid_request"),
                    (["code_challenge_method": nil], "invalid_request"),
                    (["code_challenge": nil], "invalid_request"),
                    (["code_challenge": "too-short"], "invalid_request"),
                    (["response_type": "token"], "unsupported_response_type"),
                    (["scope": "admin"], "invalid_scope"),
                ]
                for (overrides, error) in cases {
                    let response = try await browser.get(fixture.authorizeURL(challenge: pkce.challenge, state: "s1", overrides: overrides))
                    #expect(response.status == 302, "\(overrides)")
                    let location = response.header("Location") ?? ""
                    #expect(location.hasPrefix(OAuthFlowFixture.redirectURI + "?"), "\(overrides)")
                    let query = BrowserTestClient.query(of: location)
                    #expect(query["error"] == error, "\(overrides)")
                    #expect(query["state"] == "s1")
                    #expect(query["code"] == nil)
                }

                // A repeated parameter is malformed.
                let repeated = try await browser.get(fixture.authorizeURL(challenge: pkce.challenge) + "&client_id=other")
                #expect(repeated.status == 400)

                // A form post without the anti-forgery cookie is refused.
                let forged = try await browser.postForm("oauth/authorize", [
                    ("response_type", "code"), ("client_id", OAuthFlowFixture.clientID), ("redirect_uri", OAuthFlowFixture.redirectURI),
                    ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
                    ("username", OAuthFlowFixture.username), ("password", OAuthFlowFixture.password), ("csrf_token", "tdf_forged"),
                ])
                #expect(forged.status == 403)

                // A wrong password shows the form again, without a session or a code.
                let wrong = try await fixture.signIn(browser, challenge: pkce.challenge, password: "wrong password")
                #expect(wrong.status == 401)
                #expect(wrong.location == nil)
                #expect(String(decoding: wrong.page.body, as: UTF8.self).contains("not correct"))
                #expect(browser.cookies["tandem_session"] == nil)

                // Nothing of the above wrote a code or a session.
                try await database.withStorage { storage in
                    let counts = try await storage.connector.withConnection { db in
                        try await db.raw("SELECT (SELECT COUNT(*) FROM authorization_codes) AS codes, (SELECT COUNT(*) FROM browser_sessions) AS sessions").first()
                    }
                    #expect(try counts?.decode(column: "codes", as: Int.self) == 0)
                    #expect(try counts?.decode(column: "sessions", as: Int.self) == 0)
                }

                // And the server still serves a correct sign-in.
                #expect(try await fixture.signIn(browser, challenge: pkce.challenge).status == 302)
            }
        }
    }

    @Test("bad code grants: wrong verifier, other redirect or client change nothing; expired and unknown codes are refused")
    func badCodeGrants() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))

                let refusals: [(HTTPTestResponse, String)] = [
                    (try await fixture.redeem(client, code: code, verifier: OAuthFlowFixture.pkce().verifier), "invalid_grant"),
                    (try await fixture.redeem(client, code: code, verifier: "short"), "invalid_grant"),
                    (try await fixture.redeem(client, code: code, verifier: pkce.verifier, redirectURI: "http://127.0.0.1/callback"), "invalid_grant"),
                    (try await fixture.redeem(client, code: code, verifier: pkce.verifier, clientID: "nobody"), "invalid_client"),
                    (try await fixture.redeem(client, code: "tdc_unknown", verifier: pkce.verifier), "invalid_grant"),
                    (try await client.postForm("oauth/token", [
                        ("grant_type", "authorization_code"), ("code", code), ("client_id", OAuthFlowFixture.clientID),
                        ("redirect_uri", OAuthFlowFixture.redirectURI),
                    ]), "invalid_request"),
                ]
                for (response, error) in refusals {
                    #expect(response.json["error"] == error, "\(String(decoding: response.body, as: UTF8.self))")
                    #expect(response.status == 400)
                }
                let families = try await database.withStorage { storage in
                    try await storage.connector.withConnection { db in
                        try await db.raw("SELECT COUNT(*) AS n FROM token_families").first()?.decode(column: "n", as: Int.self)
                    }
                }
                #expect(families == 0, "a refused code grant wrote a grant")

                // The code is still good for the right verifier after all that.
                #expect(try await fixture.redeem(client, code: code, verifier: pkce.verifier).status == 200)

                // A code redeemed once its lifetime has passed on the server's clock.
                let (expired, expiredCode) = try await fixture.signedInCode(BrowserTestClient(client))
                fixture.clock.advance(by: TandemServerConfiguration(database: database.location).authorizationCodeLifetime)
                let late = try await fixture.redeem(client, code: expiredCode, verifier: expired.verifier)
                #expect(late.status == 400)
                #expect(late.json["error"] == "invalid_grant")
            }
        }
    }

    @Test("oversized and malformed bodies at every form endpoint get 4xx and the server keeps serving")
    func oversizedAndMalformedBodies() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let huge = Data(("token=" + String(repeating: "a", count: 70 * 1024)).utf8)
                for path in ["oauth/token", "oauth/revoke", "oauth/authorize"] {
                    #expect(try await client.post(path, body: huge).status == 413, "\(path)")
                    #expect(try await client.post(path, body: Data("a=%zz".utf8)).status == 400, "\(path)")
                    #expect(try await client.post(path, body: Data("{}".utf8), contentType: "application/json").status == 400, "\(path)")
                }
                let anonymous = try await client.post("oauth/introspect", body: Data("token=x".utf8))
                #expect(anonymous.status == 401)
                #expect(anonymous.header("WWW-Authenticate") != nil)
                #expect(String(decoding: anonymous.body, as: UTF8.self).contains("invalid_client"))
                let wrongKey = try await client.post("oauth/introspect", body: Data("token=x".utf8), headers: ["X-API-Key": "tdk_wrong"])
                #expect(wrongKey.status == 401)
                let oversized = try await client.post("oauth/introspect", body: huge, headers: ["X-API-Key": fixture.apiKey])
                #expect(oversized.status == 413)
                #expect(try await client.get("health").status == 200)
            }
        }
    }

    @Test("no password, code, token, session or key from the whole flow appears in the logs or the database", arguments: TestBackend.allCases)
    func noSecretsAnywhere(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let capture = LogCapture()
            let secrets = try await fixture.test(logger: capture.logger) { client in
                let browser = BrowserTestClient(client)
                let pkce = OAuthFlowFixture.pkce()
                var secrets = [OAuthFlowFixture.password, fixture.apiKey, pkce.verifier]
                _ = try await fixture.signIn(browser, challenge: pkce.challenge, password: "a wrong password attempt")
                secrets.append("a wrong password attempt")
                let signIn = try await fixture.signIn(browser, challenge: pkce.challenge)
                let code = try #require(BrowserTestClient.query(of: signIn.location ?? "")["code"])
                secrets += [code] + browser.cookies.values
                let tokens = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                let refreshed = try await fixture.refresh(client, try #require(tokens.json["refresh_token"]))
                let exchanged = try await fixture.exchange(client, try #require(refreshed.json["access_token"]))
                for response in [tokens, refreshed, exchanged] {
                    secrets += [response.json["access_token"], response.json["refresh_token"]].compactMap { $0 }
                }
                _ = try await fixture.introspect(client, try #require(exchanged.json["access_token"]))
                _ = try await fixture.redeem(client, code: code, verifier: pkce.verifier)  // a replay, logged as refused
                _ = try await client.postForm("oauth/revoke", [
                    ("token", try #require(refreshed.json["refresh_token"])), ("client_id", OAuthFlowFixture.clientID),
                ])
                return secrets
            }
            let logs = capture.lines.joined(separator: "\n")
            #expect(logs.contains("authorization code redeemed") && logs.contains("grant revoked"), "the server logged its work")
            let stored = try await DatabaseContents.everything(in: database)
            #expect(secrets.count >= 12)
            for secret in secrets {
                #expect(!logs.contains(secret), "a secret appears in the logs")
                #expect(!DatabaseContents.bytes(stored, contain: secret), "a secret is stored in plain text")
                if secret.count > 8, secret.dropFirst(4).count > 20 {
                    #expect(!logs.contains(String(secret.dropFirst(4))), "a secret's body appears in the logs")
                }
            }
        }
    }
}
