import Foundation
import TandemBackends
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The cockpit's backend destinations against a live server and a real loopback backend: a
/// document is checked before it is saved (a refused one changes nothing and comes back with
/// the reason), every change and every "fetch the first page as" is audited under the
/// administrator, the fetch shows exactly the page that user's widget would get, the page shows
/// the destination's circuit, calls and latency, and only an administrator with the page's
/// token gets any of it.
@Suite struct CockpitDestinationsTests {
    static let admin = "root"
    static let adminPassword = "a-long-admin-password"

    /// The destination `crm` at `base` (REST, `/rest/items`, each user's own items).
    static func document(base: String, title: String = "CRM") -> String {
        let destination = BackendDestination(
            name: "crm", title: title, protocolKind: .rest, baseURL: base + "rest", authentication: .userToken(audience: "https://backend.test"),
            entitySets: [BackendEntitySet(
                name: "Items", path: "items",
                mapping: EntitySetMapping(
                    protocolKind: .rest, items: JSONPointer(tokens: ["results"]), id: FieldMapping(pointer: JSONPointer(tokens: ["id"])),
                    title: FieldMapping(pointer: JSONPointer(tokens: ["title"]))))])
        return String(decoding: destination.document(), as: UTF8.self)
    }

    /// Runs `body` with a live server that may call loopback backends (the demo seeded, plus
    /// an administrator), signed in as that administrator, and a fake backend that knows the demo user.
    func withCockpit(_ body: @Sendable @escaping (BrowserTestClient, String, FakeCustomerBackend, TestDatabase) async throws -> Void) async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                _ = try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                    .createUser(username: Self.admin, password: Self.adminPassword)
                #expect(try await storage.accounts.setAdmin(username: Self.admin, admin: true))
                return fixture
            }
            // The router in process (no socket of its own, so no idle connection to close while a
            // busy machine starves the test); its calls to the backend are real.
            try await InProcessServer.test(database, .router, clock: fixture.clock, configure: { configuration in
                configuration.outbound.allowsLoopback = true
                configuration.outbound.connectTimeout = .seconds(60)
                configuration.outbound.requestTimeout = .seconds(60)
                configuration.push.runsSender = false
            }) { client in
                let browser = BrowserTestClient(client)
                try await CockpitTests.signIn(browser, username: Self.admin, password: Self.adminPassword)
                let home = CockpitTests.html(try await browser.get("admin"))
                #expect(home.contains(#"<a href="/admin/destinations" id="destinations-link">"#))
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: home))
                let backend = FakeCustomerBackend()
                backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: ServerAdministration.demoUsername)
                try await body(browser, token, backend, database)
            }
        }
    }

    @Test func aDocumentIsCheckedBeforeItIsSavedAndEveryChangeIsAudited() async throws {
        try await withCockpit { browser, token, backend, database in
            try await backend.serve { base in
                let refused = try await browser.postForm("admin/destinations", [
                    ("csrf_token", token), ("document", Self.document(base: "http://169.254.169.254/").replacingOccurrences(of: "\"rest\"", with: "\"soap\"")),
                ])
                #expect(refused.status == 400)
                let refusedPage = CockpitTests.html(refused)
                #expect(refusedPage.contains("Not saved:"), "\(refusedPage)")
                #expect(refusedPage.contains("soap"), "the refused document comes back to be corrected")
                #expect(try await database.withStorage { try await $0.backendDestinations.destinations() }.isEmpty)

                // Without the page's token nothing is saved.
                let forged = try await browser.postForm("admin/destinations", [("document", Self.document(base: base))])
                #expect(forged.status == 403)
                #expect(try await database.withStorage { try await $0.backendDestinations.destinations() }.isEmpty)

                let saved = try await browser.postForm("admin/destinations", [("csrf_token", token), ("document", Self.document(base: base))])
                #expect(saved.status == 303)
                #expect(saved.header("Location") == "/admin/destinations/crm")
                let list = CockpitTests.html(try await browser.get("admin/destinations"))
                #expect(list.contains(#"<a href="/admin/destinations/crm">crm</a>"#))
                #expect(list.contains("not called yet"))

                let replaced = try await browser.postForm("admin/destinations", [
                    ("csrf_token", token), ("document", Self.document(base: base, title: "Customer relations")),
                ])
                #expect(replaced.status == 303)
                #expect(try await database.withStorage { try await $0.backendDestinations.destination(named: "crm") }?.title == "Customer relations")

                let removed = try await browser.postForm("admin/destinations/crm/remove", [("csrf_token", token)])
                #expect(removed.status == 200)
                #expect(try await database.withStorage { try await $0.backendDestinations.destinations() }.isEmpty)
                #expect(try await browser.get("admin/destinations/crm").status == 404)

                let audit = try await database.withStorage { try await $0.audit.auditEvents(clientID: nil, limit: 20) }.map(\.kind)
                #expect(audit.filter { $0 == "cockpit.destination-saved" }.count == 2, "\(audit)")
                #expect(audit.contains("cockpit.destination-removed"))
            }
        }
    }

    @Test func fetchingAsAUserShowsTheirPageAndTheDestinationsHealth() async throws {
        try await withCockpit { browser, token, backend, database in
            try await backend.serve { base in
                #expect(try await browser.postForm("admin/destinations", [("csrf_token", token), ("document", Self.document(base: base))]).status == 303)
                let fetched = try await browser.postForm("admin/destinations/crm/fetch", [
                    ("csrf_token", token), ("entity_set", "Items"), ("username", ServerAdministration.demoUsername),
                    ("client_id", ServerAdministration.demoClientID),
                ])
                #expect(fetched.status == 200)
                let page = CockpitTests.html(fetched)
                #expect(page.contains(#"<span class="" id="trial-status">200</span>"#), "\(page)")
                #expect(page.contains("Ada&#39;s laptop") || page.contains("Ada&apos;s laptop") || page.contains("Ada's laptop"), "\(page)")
                #expect(page.contains(#"<td id="circuit" class="">closed</td>"#), "\(page)")
                #expect(page.contains("1 ok · 0 failed · 0 refused by the circuit"), "\(page)")
                #expect(page.contains("p50 "), "the latency of the call")
                #expect(backend.seen.count == 1)

                // The backend refuses: the page shows the status the widget would get.
                backend.answer(403)
                let refused = CockpitTests.html(try await browser.postForm("admin/destinations/crm/fetch", [
                    ("csrf_token", token), ("entity_set", "Items"), ("username", ServerAdministration.demoUsername),
                    ("client_id", ServerAdministration.demoClientID),
                ]))
                #expect(refused.contains(#"<span class="error" id="trial-status">403</span>"#), "\(refused)")
                #expect(refused.contains("backend_forbidden"))

                // An unknown user is a typed refusal, and the backend is not called.
                let unknown = try await browser.postForm("admin/destinations/crm/fetch", [
                    ("csrf_token", token), ("entity_set", "Items"), ("username", "nobody"), ("client_id", ServerAdministration.demoClientID),
                ])
                #expect(unknown.status == 400)
                #expect(CockpitTests.html(unknown).contains("Not fetched:"))
                #expect(backend.seen.count == 2)

                let audit = try await database.withStorage { try await $0.audit.auditEvents(clientID: nil, limit: 20) }
                let fetches = audit.filter { $0.kind == "cockpit.destination-fetched-as" }.map(\.detail)
                #expect(fetches.sorted() == ["crm/Items as demo: 200", "crm/Items as demo: 403"], "\(fetches)")
                #expect(audit.filter { $0.kind == "cockpit.destination-fetched-as" }.allSatisfy { $0.source != nil })
            }
        }
    }

    @Test func onlyAnAdministratorGetsTheDestinations() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await CockpitTests.seed(database)
            try await fixture.test { client in
                #expect(try await BrowserTestClient(client).get("admin/destinations").status == 302)
                let user = BrowserTestClient(client)
                try await CockpitTests.signIn(user, username: OAuthFlowFixture.username, password: OAuthFlowFixture.password)
                #expect(try await user.get("admin/destinations").status == 403)
                #expect(try await user.postForm("admin/destinations", [("document", "{}")]).status == 403)
            }
        }
    }
}
