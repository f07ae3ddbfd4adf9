import Crypto
import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The administrators' cockpit in process: only an administrator gets a page, every form needs
/// the page's token, an app created there works, its SSO switch takes effect at once, an API key
/// is shown once, works, and is refused the moment it is revoked; the audit log is on the page.
@Suite("Cockpit")
struct CockpitTests {
    static let admin = "root"
    static let adminPassword = "a-long-admin-password"

    /// Seeds the OAuth fixture plus an administrator.
    static func seed(_ database: TestDatabase) async throws -> OAuthFlowFixture {
        let fixture = try await OAuthFlowFixture.seed(database)
        try await database.withStorage { storage in
            _ = try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                .createUser(username: admin, password: adminPassword)
            #expect(try await storage.accounts.setAdmin(username: admin, admin: true))
        }
        return fixture
    }

    /// Signs `browser` in at `/signin` as `username`, returning to the cockpit.
    static func signIn(_ browser: BrowserTestClient, username: String, password: String) async throws {
        let form = try await browser.get("signin?next=/admin")
        let token = try #require(BrowserTestClient.formToken(in: String(decoding: form.body, as: UTF8.self)))
        let posted = try await browser.postForm("signin", [("next", "/admin"), ("csrf_token", token), ("username", username), ("password", password)])
        #expect(posted.status == 303)
    }

    static func html(_ response: HTTPTestResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("only administrators get the cockpit", arguments: TestBackend.allCases)
    func administratorsOnly(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await Self.seed(database)
            try await fixture.test { client in
                let anonymous = BrowserTestClient(client)
                let redirect = try await anonymous.get("admin")
                #expect(redirect.status == 302)
                #expect(redirect.header("Location") == "/signin?next=%2Fadmin")

                let user = BrowserTestClient(client)
                try await Self.signIn(user, username: OAuthFlowFixture.username, password: OAuthFlowFixture.password)
                let refused = try await user.get("admin")
                #expect(refused.status == 403, "a user who is not an administrator")
                #expect(try await user.postForm("admin/apps", [("client_id", "x"), ("name", "X")]).status == 403)

                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let page = try await admin.get("admin")
                #expect(page.status == 200)
                #expect(Self.html(page).contains(#"<a href="/admin/apps/widget-demo">widget-demo</a>"#))
                #expect(page.header("Content-Security-Policy")?.contains("form-action 'self'") == true)
            }
        }
    }

    @Test("sign-out ends the site session: its cookie is cleared and a copy of it is refused; without its token nothing happens")
    func signOutEndsTheSession() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await Self.seed(database)
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let copied = try #require(admin.cookies["tandem_session"])
                let home = Self.html(try await admin.get("admin"))
                let token = try #require(BrowserTestClient.hiddenValue("signout_token", in: home))

                // Another site's form (no token, or the cockpit's own token) signs nobody out.
                let cockpitToken = try #require(BrowserTestClient.hiddenValue("csrf_token", in: home))
                #expect(try await admin.postForm("signout", []).status == 403)
                #expect(try await admin.postForm("signout", [("signout_token", cockpitToken)]).status == 403)
                #expect(try await admin.get("admin").status == 200, "still signed in")

                let signedOut = try await admin.postForm("signout", [("signout_token", token)])
                #expect(signedOut.status == 303)
                #expect(signedOut.header("Location") == "/signin")
                #expect(signedOut.header("Set-Cookie")?.contains("Max-Age=0") == true, "\(signedOut.header("Set-Cookie") ?? "")")
                #expect(try await admin.get("admin").status == 302, "the browser is signed out")

                let replay = try await client.get("admin", headers: ["Cookie": "tandem_session=\(copied)"])
                #expect(replay.status == 302, "a copied cookie of the ended session is refused")
            }
        }
    }

    @Test("an app created in the cockpit works; its SSO switch and API keys take effect at once")
    func appsKeysAndSwitches() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await Self.seed(database)
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: Self.html(try await admin.get("admin"))))

                // No token, no app.
                let forged = try await admin.postForm("admin/apps", [("client_id", "sales"), ("name", "Sales"), ("security_mode", "oauth")])
                #expect(forged.status == 403)
                let created = try await admin.postForm("admin/apps", [
                    ("csrf_token", token), ("client_id", "sales"), ("name", "Sales"), ("redirect_uri", "sales://cb"), ("url_scheme", "sales"),
                    ("security_mode", "oauth"),
                ])
                #expect(created.status == 303)
                #expect(created.header("Location") == "/admin/apps/sales")
                let invalid = try await admin.postForm("admin/apps", [("csrf_token", token), ("client_id", "has space"), ("name", "X")])
                #expect(invalid.status == 400)
                #expect(Self.html(invalid).contains("client id must be 1 to 128 visible ASCII characters, without spaces"))
                // Finding 13: a scheme of the web or the system is not an app's own, whatever the form says.
                for scheme in ["https", "javascript", "Sales", "sales%0A"] {
                    let refused = try await admin.postForm("admin/apps", [
                        ("csrf_token", token), ("client_id", "web-\(scheme.count)"), ("name", "Web"), ("url_scheme", scheme.removingPercentEncoding ?? scheme),
                        ("security_mode", "oauth"),
                    ])
                    #expect(refused.status == 400, "\(scheme)")
                    #expect(Self.html(refused).contains("is not the app&#39;s own") || Self.html(refused).contains("is not the app's own"), "\(scheme)")
                }

                // SSO off at first: no page; switched on here, the page is there at once.
                #expect(try await admin.get("sso/sales").status == 404)
                let saved = try await admin.postForm("admin/apps/sales/settings", [("csrf_token", token), ("sso", "on"), ("confirmation", "on")])
                #expect(saved.status == 200)
                #expect(Self.html(saved).contains(#"id="sso" checked"#))
                #expect(Self.html(saved).contains("http://localhost:8080/sso/sales") || Self.html(saved).contains("/sso/sales</code>"))
                #expect(try await admin.get("sso/sales").status == 200)

                // The Lock Screen policy: on for a new app; switched off here, the configuration says so at once.
                #expect(Self.html(try await admin.get("admin/apps/sales")).contains(#"id="lock-screen-redaction" checked"#))
                let configurationOn = try await client.get("v1/apps/sales/configuration", headers: [:])
                #expect((try JSONSerialization.jsonObject(with: configurationOn.body) as? [String: Any])?["lock_screen_redaction"] as? Bool == true)
                let forgedPolicy = try await admin.postForm("admin/apps/sales/lock-screen", [])
                #expect(forgedPolicy.status == 403)
                let lockScreenOff = try await admin.postForm("admin/apps/sales/lock-screen", [("csrf_token", token)])
                #expect(lockScreenOff.status == 200)
                #expect(!Self.html(lockScreenOff).contains(#"id="lock-screen-redaction" checked"#))
                let configurationOff = try await client.get("v1/apps/sales/configuration", headers: [:])
                #expect((try JSONSerialization.jsonObject(with: configurationOff.body) as? [String: Any])?["lock_screen_redaction"] as? Bool == false)
                #expect(try await admin.postForm("admin/apps/nobody/lock-screen", [("csrf_token", token)]).status == 404)

                // DPoP: optional for a new app; required here, the configuration says so at once,
                // and the change is audited.
                #expect(!Self.html(try await admin.get("admin/apps/sales")).contains(#"id="dpop-required" checked"#))
                #expect(try await admin.postForm("admin/apps/sales/dpop", [("required", "on")]).status == 403)
                let dpopOn = try await admin.postForm("admin/apps/sales/dpop", [("csrf_token", token), ("required", "on")])
                #expect(Self.html(dpopOn).contains(#"id="dpop-required" checked"#))
                #expect(Self.html(dpopOn).contains("cockpit.dpop-changed"))
                let configurationDPoP = try await client.get("v1/apps/sales/configuration", headers: [:])
                #expect((try JSONSerialization.jsonObject(with: configurationDPoP.body) as? [String: Any])?["dpop_required"] as? Bool == true)

                // An API-key app: a key shown once, used, revoked, refused at once.
                _ = try await admin.postForm("admin/apps", [("csrf_token", token), ("client_id", "kiosk"), ("name", "Kiosk"), ("security_mode", "apiKey")])
                let keyPage = try await admin.postForm("admin/apps/kiosk/keys", [("csrf_token", token)])
                let html = Self.html(keyPage)
                let key = try #require(html.firstMatch(of: /<code id="new-key">(tdk_[A-Za-z0-9_-]+)<\/code>/).map { String($0.1) })
                #expect(try await client.get("v1/destinations", headers: ["X-API-Key": key]).status == 200)
                let again = Self.html(try await admin.get("admin/apps/kiosk"))
                #expect(!again.contains(key), "the key is shown once")
                let keyID = try #require(again.firstMatch(of: /action="\/admin\/apps\/kiosk\/keys\/([0-9a-f-]+)\/revoke"/).map { String($0.1) })
                let revoked = try await admin.postForm("admin/apps/kiosk/keys/\(keyID)/revoke", [("csrf_token", token)])
                #expect(Self.html(revoked).contains("The key is revoked."))
                #expect(try await client.get("v1/destinations", headers: ["X-API-Key": key]).status == 401, "refused the moment it is revoked")
            }
            let apps = try await database.withStorage { try await $0.apps.apps() }.map(\.clientID)
            #expect(apps == ["kiosk", "resource-server", "sales", "widget-demo"])
            // Finding 9: every change made in the cockpit is in the audit log, with who made it.
            let (sales, kiosk) = try await database.withStorage { storage in
                (try await storage.audit.auditEvents(clientID: "sales", limit: 50), try await storage.audit.auditEvents(clientID: "kiosk", limit: 50))
            }
            let cockpit = { (events: [AuditEvent]) in events.filter { $0.kind.hasPrefix("cockpit.") } }
            #expect(Set(cockpit(sales).map(\.kind)) == ["cockpit.app-created", "cockpit.sso-changed", "cockpit.lock-screen-changed", "cockpit.dpop-changed"], "\(sales.map(\.kind))")
            #expect(Set(cockpit(kiosk).map(\.kind)) == ["cockpit.app-created", "cockpit.api-key-created", "cockpit.api-key-revoked"], "\(kiosk.map(\.kind))")
            #expect(cockpit(sales + kiosk).allSatisfy { $0.userID != nil && $0.source != nil })
            #expect(sales.first { $0.kind == "cockpit.sso-changed" }?.detail == "sso on, desktop approval on")
            #expect(sales.first { $0.kind == "cockpit.lock-screen-changed" }?.detail == "lock screen redaction off")
        }
    }

    @Test("an app's APNs key is given in the cockpit, stored sealed, never shown again; a bad one changes nothing")
    func apnsKeys() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await Self.seed(database)
            let key = P256.Signing.PrivateKey()
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: Self.html(try await admin.get("admin"))))
                _ = try await admin.postForm("admin/apps", [
                    ("csrf_token", token), ("client_id", "sales"), ("name", "Sales"), ("redirect_uri", "sales://cb"), ("security_mode", "oauth"),
                ])
                #expect(Self.html(try await admin.get("admin/apps/sales")).contains("No APNs key"))
                let form = [
                    ("csrf_token", token), ("key_id", "ABCDE12345"), ("team_id", "TEAM123456"), ("bundle_id", "com.example.sales"),
                    ("key", key.pemRepresentation),
                ]
                #expect(try await admin.postForm("admin/apps/sales/apns-key", Array(form.dropFirst())).status == 403, "no page token, no key")
                for (field, bad) in [("key", "not a key"), ("key_id", "abc"), ("bundle_id", ".sales")] {
                    let refused = try await admin.postForm("admin/apps/sales/apns-key", form.map { $0.0 == field ? (field, bad) : $0 })
                    #expect(refused.status == 400 && Self.html(refused).contains("Not saved"), "\(field)")
                }
                let saved = try await admin.postForm("admin/apps/sales/apns-key", form)
                #expect(saved.status == 200)
                let page = Self.html(saved)
                #expect(page.contains("APNs key ABCDE12345 of team TEAM123456, topic com.example.sales"))
                #expect(page.contains("Host pushes: 0 sent · Widget pushes: 0 sent · 0 owed"))
                #expect(!page.contains(String(key.pemRepresentation.split(separator: "\n")[1])), "the key is never shown")
            }
            let stored = try await database.withStorage { storage in
                try await storage.apnsCredentials.credentials(
                    clientID: "sales", sealingKey: try await ServerKeys.load(from: storage.serverKeys, secret: .forTests).sealingKey)
            }
            #expect(stored?.privateKey.rawRepresentation == key.rawRepresentation)
            let audit = try await database.withStorage { try await $0.audit.auditEvents(clientID: "sales", limit: 50) }
            #expect(audit.first { $0.kind == "cockpit.apns-key-changed" }?.detail == "APNs key ABCDE12345 of team TEAM123456, topic com.example.sales")
        }
    }

    @Test("the app page shows the audit log and the widget taps")
    func auditLogAndTaps() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await Self.seed(database)
            // A minute before the server's clock: inside the seven days the chart counts.
            let earlier = Timestamp(fixture.clock.now).adding(.seconds(-60))
            try await database.withStorage { storage in
                try await storage.audit.appendAuditEvent(AuditEvent(
                    id: "e1", at: earlier, kind: "sso.reuse", clientID: OAuthFlowFixture.clientID, userID: fixture.userID, source: "10.0.0.9",
                    detail: "passcode p1 <presented again>"))
                _ = try await storage.analytics.storeEvents([
                    AnalyticsEvent(
                        id: "00000000-0000-0000-0000-000000000001", clientID: OAuthFlowFixture.clientID, subject: fixture.userID, name: "widget.tap",
                        occurredAt: earlier, kind: "business-data", family: "systemMedium",
                        configuration: #"{"destination":"sales","entitySet":"Customers","limit":2}"#, properties: "{}"),
                    AnalyticsEvent(
                        id: "00000000-0000-0000-0000-000000000002", clientID: OAuthFlowFixture.clientID, subject: fixture.userID, name: "widget.tap",
                        occurredAt: earlier, kind: "business-data", family: "noSuchFamily", configuration: "not json", properties: "{}"),
                ], now: earlier)
                _ = try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Customers",
                    rows: [#"{"CustomerID":"C-1","CustomerName":"Acme <Tools>"}"#, #"{"CustomerID":"C-2","CustomerName":"Globex"}"#], now: earlier)
            }
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let page = Self.html(try await admin.get("admin/apps/\(OAuthFlowFixture.clientID)"))
                #expect(page.contains("<td>sso.reuse</td>"))
                #expect(page.contains("<td>10.0.0.9</td>"))
                #expect(page.contains("passcode p1 &lt;presented again&gt;"), "escaped")
                #expect(page.contains(#"<p class="muted" id="tap-total">2 taps</p>"#))
                #expect(page.contains("business-data · systemMedium"))
                // One preview: the placed widget, drawn with the server's rows; the untrusted
                // configuration that does not decode is skipped.
                #expect(page.components(separatedBy: #"<figure class="preview">"#).count == 2)
                #expect(page.contains("<figcaption>business-data · systemMedium · “Customers · sales” as clients reported it</figcaption>"))
                #expect(page.contains("Acme &lt;Tools&gt;"), "the row, escaped by the renderer")
            }
        }
    }

    @Test("the app page counts widget actions by outcome, surface and family")
    func widgetActions() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await Self.seed(database)
            let earlier = Timestamp(fixture.clock.now).adding(.seconds(-60))
            let events = [("done", "widget", "systemMedium"), ("done", "widget", "systemMedium"), ("done", "shortcut", nil), ("needs-app", "widget", "systemLarge")]
            try await database.withStorage { storage in
                _ = try await storage.analytics.storeEvents(events.enumerated().map { index, event in
                    AnalyticsEvent(
                        id: "00000000-0000-0000-0000-00000000010\(index)", clientID: OAuthFlowFixture.clientID, subject: fixture.userID,
                        name: ActionEventNames.name(outcome: event.0), occurredAt: earlier, kind: event.1, family: event.2, configuration: nil,
                        properties: #"{"action":"approve"}"#)
                }, now: earlier)
            }
            try await fixture.test { client in
                let admin = BrowserTestClient(client)
                try await Self.signIn(admin, username: Self.admin, password: Self.adminPassword)
                let page = Self.html(try await admin.get("admin/apps/\(OAuthFlowFixture.clientID)"))
                #expect(page.contains(#"<p class="muted" id="action-total">4 actions: 3 done, 1 needs-app</p>"#))
                #expect(page.contains("<tr><td>done</td><td>widget</td><td>systemMedium</td><td>2</td></tr>"))
                #expect(page.contains("<tr><td>done</td><td>shortcut</td><td>–</td><td>1</td></tr>"))
                #expect(page.contains("<tr><td>needs-app</td><td>widget</td><td>systemLarge</td><td>1</td></tr>"))
            }
        }
    }
}
