import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The SSO onboarding page in process: sign in at `/signin`, get a QR code (desktop) or a
/// "Next" link (phone) carrying a fresh passcode, see the phone's redemption, approve or deny
/// with the page's token; everything a session does not own is refused.
@Suite("SSO onboarding page")
struct SSOPageTests {
    static let desktop = ["User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120"]
    static let phone = ["User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"]
    static let ssoPath = "sso/\(OAuthFlowFixture.clientID)"

    /// Signs `browser` in through `/signin`, as a person would, returning to the SSO page.
    static func signIn(_ browser: BrowserTestClient) async throws {
        let form = try await browser.get("signin?next=/\(ssoPath)")
        let token = try #require(BrowserTestClient.formToken(in: String(decoding: form.body, as: UTF8.self)))
        let posted = try await browser.postForm("signin", [
            ("next", "/\(ssoPath)"), ("csrf_token", token), ("username", OAuthFlowFixture.username), ("password", OAuthFlowFixture.password),
        ])
        #expect(posted.status == 303)
        #expect(posted.header("Location") == "/\(ssoPath)")
    }

    /// The value of `attribute="…"` in `html` (HTML entities of `&` undone).
    static func attribute(_ attribute: String, in html: String) -> String? {
        guard let range = html.range(of: "\(attribute)=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("without a session the page sends the browser to sign in and back")
    func signInFirst() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                let page = try await browser.get(Self.ssoPath, headers: Self.desktop)
                #expect(page.status == 302)
                #expect(page.header("Location") == "/signin?next=%2Fsso%2Fwidget-demo")
                let offsite = try await browser.get("signin?next=https://evil.example/")
                #expect(Self.attribute("value", in: String(decoding: offsite.body, as: UTF8.self)) == "/account", "next stays on this site")
                try await Self.signIn(browser)
            }
        }
    }

    @Test("a browser session ends when its lifetime has passed on the server's clock", arguments: TestBackend.allCases)
    func sessionExpires(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let lifetime = Duration.seconds(3600)
            try await fixture.test(configure: { $0.browserSessionLifetime = lifetime }) { client in
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                fixture.clock.advance(by: lifetime - .milliseconds(1))
                #expect(try await browser.get(Self.ssoPath, headers: Self.desktop).status == 200, "the session's last millisecond")
                fixture.clock.advance(by: .milliseconds(1))
                let ended = try await browser.get(Self.ssoPath, headers: Self.desktop)
                #expect(ended.status == 302)
                #expect(ended.header("Location") == "/signin?next=%2Fsso%2Fwidget-demo")
            }
        }
    }

    @Test("the desktop page's QR link onboards a phone once the desktop approves", arguments: TestBackend.allCases)
    func desktopApproval(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let pollInterval = Duration.seconds(5)
            try await fixture.test(configure: { $0.ssoPollInterval = pollInterval }) { client in
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let page = try await browser.get(Self.ssoPath, headers: Self.desktop)
                #expect(page.status == 200)
                #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
                #expect(page.header("Content-Security-Policy")?.contains("unsafe-inline") == false)
                let html = String(decoding: page.body, as: UTF8.self)
                #expect(html.contains("<svg"), "the QR code is inline SVG")
                #expect(html.contains("Sign in to Widget Demo on your phone"))
                #expect(html.contains("Scan this code only with the Widget Demo app"))
                #expect(!html.contains("<script>"), "no inline script")
                let link = try #require(Self.attribute("data-link", in: html))
                let payload = try SSOOnboardingPayload(link: try #require(URL(string: link)))
                #expect(link.hasPrefix("widgetdemo://sso?config="))
                #expect(payload.clientID == OAuthFlowFixture.clientID)
                #expect(payload.redirectURI == OAuthFlowFixture.redirectURI)
                #expect(payload.passcode.hasPrefix("tdp_"))
                #expect(!payload.isExpired(at: fixture.clock.now))
                let id = try #require(Self.attribute("data-id", in: html))
                let csrf = try #require(Self.attribute("data-csrf", in: html))

                let claim = try await SSOPasscodeGrantTests.redeem(client, payload.passcode)
                #expect(claim.body["error"] as? String == "authorization_pending")
                let status = try await browser.get("\(Self.ssoPath)/status/\(id)")
                let state = try #require(try JSONSerialization.jsonObject(with: status.body) as? [String: Any])
                #expect(state["state"] as? String == "claimed")
                #expect(state["device"] as? String == "iPhone test")

                let forged = try await browser.postForm("\(Self.ssoPath)/decision", [("id", id), ("decision", "approve"), ("csrf_token", "forged")])
                #expect(forged.status == 403, "a form without the page's token is refused")
                let approved = try await browser.postForm("\(Self.ssoPath)/decision", [("id", id), ("decision", "approve"), ("csrf_token", csrf)])
                #expect(approved.status == 200)
                #expect(String(decoding: approved.body, as: UTF8.self).contains("Approved"))
                let again = try await browser.postForm("\(Self.ssoPath)/decision", [("id", id), ("decision", "deny"), ("csrf_token", csrf)])
                #expect(again.status == 409, "decided once")

                // The phone polls again once its interval has passed.
                fixture.clock.advance(by: pollInterval)
                let tokens = try await SSOPasscodeGrantTests.redeem(client, payload.passcode)
                #expect(tokens.status == 200, "\(tokens.body)")
                let done = try await browser.get("\(Self.ssoPath)/status/\(id)")
                #expect((try JSONSerialization.jsonObject(with: done.body) as? [String: Any])?["state"] as? String == "redeemed")

                let stranger = BrowserTestClient(client)
                #expect(try await stranger.get("\(Self.ssoPath)/status/\(id)").status == 404, "another browser learns nothing")
            }
        }
    }

    @Test("a phone gets a Next link, the page renews its code with its token, and a non-SSO app has no page")
    func phoneRenewalAndRefusals() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let page = try await browser.get(Self.ssoPath, headers: Self.phone)
                let html = String(decoding: page.body, as: UTF8.self)
                #expect(!html.contains("<svg"), "no QR code on a phone")
                let next = try #require(Self.attribute("href", in: String(html[try #require(html.range(of: "id=\"next\""))!.lowerBound...])))
                #expect(try SSOOnboardingPayload(link: try #require(URL(string: next))).clientID == OAuthFlowFixture.clientID)

                let csrf = try #require(Self.attribute("data-csrf", in: html))
                #expect(try await browser.postForm("\(Self.ssoPath)/code", []).status == 403, "no token, no code")
                let renewed = try await browser.postForm("\(Self.ssoPath)/code", [], headers: ["X-CSRF-Token": csrf])
                #expect(renewed.status == 200)
                let code = try #require(try JSONSerialization.jsonObject(with: renewed.body) as? [String: Any])
                #expect((code["svg"] as? String)?.hasPrefix("<svg") == true)
                #expect((code["link"] as? String)?.hasPrefix("widgetdemo://sso?config=") == true)
                #expect(code["id"] as? String != Self.attribute("data-id", in: html))

                #expect(try await browser.get("sso/resource-server", headers: Self.desktop).status == 404)
                #expect(try await browser.get("sso/no-such-app", headers: Self.desktop).status == 404)
            }
            let kinds = try await database.withStorage { try await $0.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 10) }.map(\.kind)
            #expect(kinds == ["sso.issued", "sso.issued"])
        }
    }
}
