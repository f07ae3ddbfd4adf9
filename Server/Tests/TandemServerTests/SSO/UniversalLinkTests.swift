import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// Finding 24.3: with a link host and its Apple app id set in the cockpit, an app's SSO links
/// are universal links, which iOS hands only to that app, instead of a custom scheme any app can
/// register; the server serves the association file that makes them so, and a page for a
/// browser that opens one. Refused values change nothing; clearing both goes back to the scheme.
@Suite("SSO universal links")
struct UniversalLinkTests {
    static let appID = "ABCDE12345.com.example.widgetdemo"
    static let settings = "admin/apps/\(OAuthFlowFixture.clientID)/universal-links"

    /// The desktop SSO page's link, for a browser signed in as the administrator.
    static func desktopLink(_ browser: BrowserTestClient) async throws -> String {
        let page = try await browser.get(SSOPageTests.ssoPath, headers: SSOPageTests.desktop)
        #expect(page.status == 200)
        return try #require(SSOPageTests.attribute("data-link", in: String(decoding: page.body, as: UTF8.self)))
    }

    @Test("with the server's link host, an Apple app id alone makes an app's SSO links universal links; without it, the id alone is refused")
    func theServersLinkHostIsTheDefault() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await CockpitTests.seed(database)
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await CockpitTests.signIn(admin, username: CockpitTests.admin, password: CockpitTests.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: CockpitTests.html(try await admin.get("admin"))))
                let refused = try await admin.postForm(Self.settings, [("csrf_token", token), ("link_host", ""), ("apple_app_id", Self.appID)])
                #expect(refused.status == 400 && CockpitTests.html(refused).contains("need a link host"))
                #expect(try await Self.desktopLink(admin).hasPrefix("widgetdemo://sso?config="))
            }
            try await fixture.test(configure: { $0.ssoLinkHost = "links.tandem.test" }) { client in
                let admin = BrowserTestClient(client)
                try await CockpitTests.signIn(admin, username: CockpitTests.admin, password: CockpitTests.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: CockpitTests.html(try await admin.get("admin"))))
                let saved = try await admin.postForm(Self.settings, [("csrf_token", token), ("link_host", ""), ("apple_app_id", Self.appID)])
                #expect(saved.status == 200 && CockpitTests.html(saved).contains("SSO links are universal links: https://links.tandem.test/sso-link/"))
                #expect(try await Self.desktopLink(admin).hasPrefix("https://links.tandem.test/sso-link/widget-demo?config="))
                let association = String(decoding: try await client.get(".well-known/apple-app-site-association").body, as: UTF8.self)
                #expect(association.contains(Self.appID))
                let document = try JSONDecoder().decode(
                    AppConfigurationDocument.self, from: try await client.get("v1/apps/widget-demo/configuration").body)
                #expect(document.ssoLinkHost == "links.tandem.test")
            }
        }
    }

    @Test("set in the cockpit, SSO links become universal links; the association file and the configuration name them", arguments: TestBackend.allCases)
    func universalLinks(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await CockpitTests.seed(database)
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await CockpitTests.signIn(admin, username: CockpitTests.admin, password: CockpitTests.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: CockpitTests.html(try await admin.get("admin"))))
                // Before: the custom scheme, which any app may register (the finding).
                #expect(try await Self.desktopLink(admin).hasPrefix("widgetdemo://sso?config="))
                let empty = try await client.get(".well-known/apple-app-site-association")
                #expect(String(decoding: empty.body, as: UTF8.self) == #"{"applinks":{"details":[]}}"#)

                let saved = try await admin.postForm(Self.settings, [("csrf_token", token), ("link_host", "links.tandem.test"), ("apple_app_id", Self.appID)])
                #expect(saved.status == 200)
                #expect(CockpitTests.html(saved).contains("SSO links are universal links: https://links.tandem.test/sso-link/"))

                let link = try await Self.desktopLink(admin)
                #expect(link.hasPrefix("https://links.tandem.test/sso-link/widget-demo?config="), "\(link)")
                let payload = try SSOOnboardingPayload(link: try #require(URL(string: link)))
                #expect(payload.clientID == OAuthFlowFixture.clientID)
                #expect(payload.server == InProcessServer.issuer)

                let association = try await client.get(".well-known/apple-app-site-association")
                #expect(association.status == 200)
                #expect(association.header("Content-Type") == "application/json")
                let file = try #require(try JSONSerialization.jsonObject(with: association.body) as? [String: Any])
                let details = try #require((file["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
                #expect(details.count == 1)
                #expect(details.first?["appIDs"] as? [String] == [Self.appID])
                let component = try #require((details.first?["components"] as? [[String: Any]])?.first)
                #expect(component["/"] as? String == "/sso-link/widget-demo")
                #expect((component["?"] as? [String: String]) == ["config": "?*"])

                let configuration = try await client.get("v1/apps/widget-demo/configuration")
                let document = try JSONDecoder().decode(AppConfigurationDocument.self, from: configuration.body)
                #expect(document.ssoLinkHost == "links.tandem.test")

                // A browser that opens the link (no app installed) gets a page without the passcode and no referrer.
                let landing = try await client.get(String(link.dropFirst("https://links.tandem.test/".count)))
                #expect(landing.status == 200)
                #expect(landing.header("Referrer-Policy") == "no-referrer")
                #expect(landing.header("Cache-Control") == "no-store")
                let html = String(decoding: landing.body, as: UTF8.self)
                #expect(html.contains("Open this code with Widget Demo"))
                #expect(!html.contains(payload.passcode))
                #expect(try await client.get("sso-link/no-such-app?config=e30").status == 404)

                // Both cleared: back to the scheme.
                #expect(try await admin.postForm(Self.settings, [("csrf_token", token), ("link_host", ""), ("apple_app_id", "")]).status == 200)
                #expect(try await Self.desktopLink(admin).hasPrefix("widgetdemo://sso?config="))
            }
            let kinds = try await database.withStorage { try await $0.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 50) }
                .filter { $0.kind == "cockpit.universal-links-changed" }.map(\.detail)
            #expect(Set(kinds) == ["SSO links https://links.tandem.test for \(Self.appID)", "SSO links use the custom scheme"])
        }
    }

    @Test("a refused link host or app id is a 400 that stores nothing", arguments: [
        ("links.tandem.test", "", "need the Apple app id"),
        ("", Self.appID, "need a link host"),
        ("https://links.tandem.test", Self.appID, "is not a domain name"),
        ("links.tandem.test\n", Self.appID, "is not a domain name"),
        ("auth.tandem.test", Self.appID, "another domain than the server"),
        ("links.tandem.test", "ABCDE12345.com.example\n", "is not TEAMID.bundle"),
        ("links.tandem.test", "com.example.widgetdemo", "is not TEAMID.bundle"),
    ])
    func refusedValues(host: String, appID: String, reason: String) async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await CockpitTests.seed(database)
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await CockpitTests.signIn(admin, username: CockpitTests.admin, password: CockpitTests.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: CockpitTests.html(try await admin.get("admin"))))
                let refused = try await admin.postForm(Self.settings, [("csrf_token", token), ("link_host", host), ("apple_app_id", appID)])
                #expect(refused.status == 400)
                #expect(CockpitTests.html(refused).contains(reason), "\(CockpitTests.html(refused).prefix(2000))")
                #expect(try await admin.postForm(Self.settings, [("link_host", "links.tandem.test"), ("apple_app_id", Self.appID)]).status == 403, "no token")
            }
            let app = try await database.withStorage { try await $0.apps.app(clientID: OAuthFlowFixture.clientID) }
            #expect(app?.ssoLinkHost == nil && app?.appleAppID == nil)
        }
    }
}
