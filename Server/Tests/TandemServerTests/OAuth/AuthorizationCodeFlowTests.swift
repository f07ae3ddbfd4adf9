import Foundation
import Testing
import TandemServerTestSupport

/// The whole OAuth life of a grant through the server's router, built in process: the sign-in
/// form, the code with PKCE, the token request, refresh with rotation, token exchange for an
/// extension grant, introspection and revocation.
@Suite("Authorization code flow over HTTP")
struct AuthorizationCodeFlowTests {
    @Test("sign in, redeem the code, refresh, exchange, introspect and revoke", arguments: TestBackend.allCases)
    func fullFlow(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                let pkce = OAuthFlowFixture.pkce()

                // The sign-in page, then the form post: a session cookie and a redirect with the code.
                let signIn = try await fixture.signIn(browser, challenge: pkce.challenge)
                #expect(signIn.status == 302)
                let location = try #require(signIn.location)
                #expect(location.hasPrefix(OAuthFlowFixture.redirectURI + "?"))
                let redirect = BrowserTestClient.query(of: location)
                #expect(redirect["state"] == "xyz")
                let code = try #require(redirect["code"])
                #expect(code.hasPrefix("tdc_"))
                #expect(browser.cookies["tandem_session"]?.hasPrefix("tds_") == true)

                // The code grant.
                let tokens = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
                #expect(tokens.header("Cache-Control") == "no-store")
                #expect(tokens.json["scope"] == "data.read events.write offline_access")
                let accessToken = try #require(tokens.json["access_token"])
                let refreshToken = try #require(tokens.json["refresh_token"])

                // With the session cookie, the next authorization takes one click on the confirmation page.
                let again = OAuthFlowFixture.pkce()
                let secondURL = fixture.authorizeURL(challenge: again.challenge, state: "second")
                let confirmation = try await browser.get(secondURL)
                #expect(confirmation.status == 200)
                let confirmToken = try #require(BrowserTestClient.hiddenValue("confirm_token", in: String(decoding: confirmation.body, as: UTF8.self)))
                let confirmed = try await fixture.confirm(browser, url: secondURL, token: confirmToken)
                #expect(confirmed.status == 302)
                let confirmedQuery = BrowserTestClient.query(of: confirmed.header("Location") ?? "")
                #expect(confirmedQuery["state"] == "second")
                let secondGrant = try await fixture.redeem(client, code: try #require(confirmedQuery["code"]), verifier: again.verifier)
                #expect(secondGrant.status == 200)

                // Introspection of both tokens.
                let introspected = try await fixture.introspect(client, accessToken)
                #expect(introspected["active"] == "1")
                #expect(introspected["username"] == OAuthFlowFixture.username)
                #expect(introspected["client_id"] == OAuthFlowFixture.clientID)
                #expect(introspected["sub"] == fixture.userID)
                #expect(try await fixture.introspect(client, refreshToken)["active"] == "1")

                // Refresh rotates; the old token is no longer active, the new one is.
                let refreshed = try await fixture.refresh(client, refreshToken)
                #expect(refreshed.status == 200)
                let rotated = try #require(refreshed.json["refresh_token"])
                #expect(rotated != refreshToken)
                #expect(try await fixture.introspect(client, refreshToken)["active"] == "0")
                #expect(try await fixture.introspect(client, rotated)["active"] == "1")

                // Token exchange: a read-only extension grant with its own refresh token.
                let exchanged = try await fixture.exchange(client, try #require(refreshed.json["access_token"]), [
                    ("requested_token_type", "urn:ietf:params:oauth:token-type:refresh_token"), ("audience", "tandem-extension"),
                ])
                #expect(exchanged.status == 200, "\(String(decoding: exchanged.body, as: UTF8.self))")
                #expect(exchanged.json["scope"] == "data.read")
                #expect(exchanged.json["issued_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
                let extensionAccess = try #require(exchanged.json["access_token"])
                let extensionRefresh = try #require(exchanged.json["refresh_token"])
                let extensionClaims = try await fixture.introspect(client, extensionAccess)
                #expect(extensionClaims["aud"] == "tandem-extension")
                #expect(extensionClaims["scope"] == "data.read")
                // The extension refreshes its own grant; the user's token is untouched by it.
                let extensionRefreshed = try await fixture.refresh(client, extensionRefresh)
                #expect(extensionRefreshed.status == 200)
                let extensionRotated = try #require(extensionRefreshed.json["refresh_token"])
                #expect(try await fixture.introspect(client, rotated)["active"] == "1")

                // An extension token cannot be exchanged again (wrong audience).
                let chained = try await fixture.exchange(client, extensionAccess)
                #expect(chained.status == 400)
                #expect(chained.json["error"] == "invalid_request")

                // Revoking the user's refresh token kills its family and the extension grant with it.
                let revoked = try await client.postForm("oauth/revoke", [
                    ("token", rotated), ("token_type_hint", "refresh_token"), ("client_id", OAuthFlowFixture.clientID),
                ])
                #expect(revoked.status == 200)
                #expect(revoked.body.isEmpty)
                #expect(try await fixture.introspect(client, rotated)["active"] == "0")
                #expect(try await fixture.introspect(client, try #require(refreshed.json["access_token"]))["active"] == "0")
                #expect(try await fixture.introspect(client, extensionAccess)["active"] == "0")
                let deadRefresh = try await fixture.refresh(client, rotated)
                #expect(deadRefresh.status == 400)
                #expect(deadRefresh.json["error"] == "invalid_grant")
                let deadExtension = try await fixture.refresh(client, extensionRotated)
                #expect(deadExtension.json["error"] == "invalid_grant")

                // The second grant (from the confirmation) is a separate family and still live.
                #expect(try await fixture.introspect(client, try #require(secondGrant.json["refresh_token"]))["active"] == "1")

                // Revoking an unknown token is a 200 too (RFC 7009 §2.2).
                let unknown = try await client.postForm("oauth/revoke", [
                    ("token", "tdr_not-a-real-token"), ("client_id", OAuthFlowFixture.clientID),
                ])
                #expect(unknown.status == 200)
            }
        }
    }

    @Test("a code redeemed twice is refused and revokes the grant it issued")
    func reusedCodeRevokesItsGrant() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let first = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                #expect(first.status == 200)
                let replay = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                #expect(replay.status == 400)
                #expect(replay.json["error"] == "invalid_grant")
                #expect(try await fixture.introspect(client, try #require(first.json["refresh_token"]))["active"] == "0")
                #expect(try await fixture.introspect(client, try #require(first.json["access_token"]))["active"] == "0")
            }
        }
    }
}
