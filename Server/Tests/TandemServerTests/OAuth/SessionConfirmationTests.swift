import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// A live browser session never yields a silent code (RFC 8252 §8.6): the user confirms each
/// request in one click, the confirmation is bound to the session and to that exact request,
/// and `prompt` is honoured.
@Suite("Authorization with an existing session")
struct SessionConfirmationTests {
    @Test("a session shows a one-click confirmation, never a silent code; the click issues the code", arguments: TestBackend.allCases)
    func sessionNeedsConfirmation(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                #expect(try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge).status == 302)

                let pkce = OAuthFlowFixture.pkce()
                let url = fixture.authorizeURL(challenge: pkce.challenge, state: "second")
                let page = try await browser.get(url)
                #expect(page.status == 200, "a session must not redirect with a code at once")
                #expect(page.header("Location") == nil)
                let html = String(decoding: page.body, as: UTF8.self)
                #expect(html.contains("Continue as ada"))
                #expect(html.contains("Widget Demo"))
                #expect(html.contains("Use another account"))
                #expect(BrowserTestClient.formToken(in: html) == nil, "no password form")
                let token = try #require(BrowserTestClient.hiddenValue("confirm_token", in: html))

                let confirmed = try await fixture.confirm(browser, url: url, token: token)
                #expect(confirmed.status == 302)
                let query = BrowserTestClient.query(of: confirmed.header("Location") ?? "")
                #expect(query["state"] == "second")
                let code = try #require(query["code"])
                #expect(try await fixture.redeem(client, code: code, verifier: pkce.verifier).status == 200)

                // The session records the clients its user confirmed.
                let confirmedClients = try await database.withStorage { storage in
                    try await storage.connector.withConnection { db in
                        try await db.raw("SELECT client_id FROM browser_session_clients").all().map { try $0.decode(column: "client_id", as: String.self) }
                    }
                }
                #expect(confirmedClients == [OAuthFlowFixture.clientID])
            }
        }
    }

    @Test("a confirmation cannot be replayed for another request, another app, another session or without a session")
    func confirmationIsBoundToRequestAndSession() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            _ = try await database.withStorage { storage in
                try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10)).createApp(
                    clientID: "other-app", name: "Other App", redirectURIs: ["otherapp://cb"], urlScheme: "otherapp",
                    securityMode: .oauth, ssoEnabled: false)
            }
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                #expect(try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge).status == 302)
                let original = OAuthFlowFixture.pkce().challenge
                let url = fixture.authorizeURL(challenge: original, state: "s")
                let html = String(decoding: try await browser.get(url).body, as: UTF8.self)
                let token = try #require(BrowserTestClient.hiddenValue("confirm_token", in: html))

                let replays = [
                    fixture.authorizeURL(challenge: OAuthFlowFixture.pkce().challenge, state: "s"),
                    fixture.authorizeURL(challenge: original, state: "other"),
                    fixture.authorizeURL(challenge: original, state: "s", overrides: ["redirect_uri": "http://127.0.0.1/callback"]),
                    fixture.authorizeURL(challenge: original, state: "s", overrides: ["client_id": "other-app", "redirect_uri": "otherapp://cb"]),
                ]
                for replay in replays {
                    let response = try await fixture.confirm(browser, url: replay, token: token)
                    #expect(response.status == 403, "\(replay)")
                    #expect(response.header("Location") == nil)
                }
                // Another browser (another session) cannot use it either, nor one without a session.
                let other = BrowserTestClient(client)
                #expect(try await fixture.confirm(other, url: url, token: token).status == 403)
                #expect(try await fixture.signIn(other, challenge: OAuthFlowFixture.pkce().challenge).status == 302)
                #expect(try await fixture.confirm(other, url: url, token: token).status == 403)

                // A second app always gets its own confirmation page.
                let otherURL = fixture.authorizeURL(
                    challenge: OAuthFlowFixture.pkce().challenge, overrides: ["client_id": "other-app", "redirect_uri": "otherapp://cb"])
                #expect(try await fixture.confirm(browser, url: url, token: token).status == 302)
                let otherPage = try await browser.get(otherURL)
                #expect(otherPage.status == 200)
                #expect(String(decoding: otherPage.body, as: UTF8.self).contains("Other App"))
            }
        }
    }

    @Test("prompt=login asks for the password; prompt=none answers login_required or interaction_required")
    func promptIsHonoured() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                let challenge = OAuthFlowFixture.pkce().challenge

                let noSession = try await browser.get(fixture.authorizeURL(challenge: challenge, state: "n", overrides: ["prompt": "none"]))
                #expect(noSession.status == 302)
                let noSessionQuery = BrowserTestClient.query(of: noSession.header("Location") ?? "")
                #expect(noSessionQuery["error"] == "login_required")
                #expect(noSessionQuery["state"] == "n")

                #expect(try await fixture.signIn(browser, challenge: challenge).status == 302)
                let withSession = try await browser.get(fixture.authorizeURL(challenge: challenge, state: "n", overrides: ["prompt": "none"]))
                #expect(withSession.status == 302)
                let withSessionQuery = BrowserTestClient.query(of: withSession.header("Location") ?? "")
                #expect(withSessionQuery["error"] == "interaction_required")
                #expect(withSessionQuery["code"] == nil)

                let login = try await browser.get(fixture.authorizeURL(challenge: challenge, overrides: ["prompt": "login"]))
                #expect(login.status == 200)
                #expect(BrowserTestClient.formToken(in: String(decoding: login.body, as: UTF8.self)) != nil, "the password form")
                // And the password form posted with prompt=login signs in again.
                #expect(try await fixture.signIn(browser, challenge: challenge, overrides: ["prompt": "login"]).status == 302)
            }
        }
    }

    @Test("the confirmation page escapes what it echoes")
    func confirmationPageEscapes() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                #expect(try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge).status == 302)
                let page = try await browser.get(fixture.authorizeURL(challenge: OAuthFlowFixture.pkce().challenge, state: #""><script>x</script>"#))
                let html = String(decoding: page.body, as: UTF8.self)
                #expect(page.status == 200)
                #expect(!html.contains("<script>"))
                #expect(html.contains("&lt;script&gt;"))
            }
        }
    }
}
