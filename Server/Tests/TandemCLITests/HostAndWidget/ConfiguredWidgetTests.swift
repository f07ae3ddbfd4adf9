import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// The business widget as a person uses it, with real processes against a real server: the
/// host caches the server's listing, the widget is configured from it, `tandem widget timeline`
/// (the widget process) shows what the host fetched, and a reconfigured widget asks for
/// something else.
@Suite("A configured business widget across processes", .serialized)
struct ConfiguredWidgetTests {
    @Test func aWidgetConfiguredFromTheListingShowsThoseRowsAndReconfiguringChangesTheRequest() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }

        let catalog = try await fixture.host(["refresh-catalog"])
        #expect(catalog.status == 0, "\(catalog.stderr)")
        let options = try #require(try ExtensionFixture.lastJSON(catalog.stdout)["options"] as? [[String: Any]])
        let offered = Set(options.compactMap { option in (option["entitySet"] as? String).map { "\(option["destination"] ?? "")/\($0)" } })
        #expect(offered.isSuperset(of: ["sales/SalesOrders", "sales/Products"]))

        let refused = try await fixture.widget(["configure", "--instance", "w1", "--destination", "sales", "--entity-set", "Invoices"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("not in the catalog"))

        try await configure(fixture, entitySet: "SalesOrders")
        let waiting = try await timeline(fixture)
        #expect(waiting.state == "unavailable", "no snapshot yet: the widget waits for the host, it is not signed out")
        #expect(waiting.rows.isEmpty)
        try await fulfil(fixture, expecting: 1)
        let orders = try await timeline(fixture)
        #expect(orders.state == "fresh")
        #expect(orders.rows.count == 4)
        #expect(orders.rows.allSatisfy { $0.hasPrefix("SO") }, "\(orders.rows)")

        try await configure(fixture, entitySet: "Products")
        let reconfigured = try await timeline(fixture)
        #expect(reconfigured.rows.allSatisfy { !$0.hasPrefix("SO") }, "the old entity set's rows are not shown as the new one's")
        try await fulfil(fixture, expecting: 1)
        let products = try await timeline(fixture)
        #expect(products.state == "fresh")
        #expect(products.rows.count == 4)
        #expect(products.rows.allSatisfy { $0.hasPrefix("P") }, "\(products.rows)")
    }

    private func configure(_ fixture: ExtensionFixture, entitySet: String) async throws {
        let result = try await fixture.widget([
            "configure", "--instance", "w1", "--family", "systemLarge", "--destination", "sales", "--entity-set", entitySet, "--limit", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The first entry of `tandem widget timeline --instance w1`: its state and its rows' keys.
    private func timeline(_ fixture: ExtensionFixture) async throws -> (state: String, rows: [String]) {
        let result = try await fixture.widget(["timeline", "--instance", "w1", "--family", "systemLarge", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try ExtensionFixture.lastJSON(result.stdout)["entries"] as? [[String: Any]])
        let first = try #require(entries.first)
        let rows = (first["rows"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        return (try #require(first["state"] as? String), rows)
    }

    /// Runs the host's background fulfilment and expects `count` requests fulfilled.
    private func fulfil(_ fixture: ExtensionFixture, expecting count: Int) async throws {
        let result = try await fixture.host(["fulfil"])
        #expect(result.status == 0, "\(result.stderr)")
        let outcomes = try ExtensionFixture.lastJSON(result.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.filter { $0["result"] as? String == "fulfilled" }.count == count, "\(outcomes)")
    }
}
