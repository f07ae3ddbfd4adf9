import Foundation
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// Choosing what a business widget shows: the catalog the host caches, the registry's
/// instances, and the page's rows.
@Suite struct DataWidgetConfigurationTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))

    init() throws { home = try WidgetHome() }

    static let listing = Data("""
        {"destinations":[{"name":"sales","title":"Sales (demo)","entity_sets":[
          {"name":"Customers","count":60,"updated_at":"2026-01-05T08:00:00Z","href":"/v1/destinations/sales/Customers"},
          {"name":"SalesOrders","count":240,"updated_at":"2026-01-05T08:00:00Z","href":"/v1/destinations/sales/SalesOrders"}]}]}
        """.utf8)

    @Test func theCatalogOffersEveryEntitySetOfTheServersListing() throws {
        let catalog = try DestinationCatalog(listing: Self.listing, fetchedAt: clock.now)
        #expect(catalog.options.map(\.title) == ["Sales (demo) · Customers", "Sales (demo) · SalesOrders"])
        #expect(catalog.options.map(\.count) == [60, 240])
        #expect(catalog.offers(catalog.options[1].configuration(limit: 3)))
        #expect(!catalog.offers(DataWidgetConfiguration(destination: "sales", entitySet: "Invoices")))
        #expect(throws: DataWidgetError.self) { try DestinationCatalog(listing: Data("{}".utf8), fetchedAt: clock.now) }
    }

    @Test func theHostsCatalogReadsInTheWidgetAndIsSealed() throws {
        let catalog = try DestinationCatalog(listing: Self.listing, fetchedAt: clock.now)
        try catalog.write(to: home.container, share: home.share)
        #expect(try DestinationCatalog.read(from: home.container, share: home.share) == catalog)
        let file = try Data(contentsOf: home.container.directory.appendingPathComponent(DestinationCatalog.recordPath))
        #expect(file.range(of: Data("SalesOrders".utf8)) == nil)
    }

    @Test func anAttackersCatalogIsIgnoredNotRead() throws {
        let path = home.container.directory.appendingPathComponent(DestinationCatalog.recordPath)
        try Data(#"{"destinations":[{"name":"evil","title":"Evil","entitySets":[]}],"fetchedAt":0}"#.utf8).write(to: path)
        #expect(try DestinationCatalog.read(from: home.container, share: home.share, logger: home.log.logger) == nil)
        // Sealed, but under a share that is not the extensions'.
        try DestinationCatalog(listing: Self.listing, fetchedAt: clock.now).write(to: home.container, share: try WidgetHome.share(fill: 9))
        #expect(try DestinationCatalog.read(from: home.container, share: home.share, logger: home.log.logger) == nil)
        #expect(home.log.logged("cannot be trusted"))
    }

    @Test func reconfiguringAnInstanceChangesWhatItRequests() async throws {
        try home.signIn(at: clock.now)
        let catalog = try DestinationCatalog(listing: Self.listing, fetchedAt: clock.now)
        let registry = home.container.widgets
        try registry.register(catalog.options[1].configuration(limit: 5).registration(id: "w1", kind: WidgetHome.kind, family: .systemMedium))
        try registry.register(RegisteredWidget(id: "other", kind: "weather", family: "systemSmall", parameters: [:]))
        let provider = home.provider(clock: clock)

        let before = try DataWidgetConfiguration.instances(ofKind: WidgetHome.kind, in: home.container)
        #expect(before.map(\.configuration.entitySet) == ["SalesOrders"])
        for instance in before { _ = await provider.timeline(for: instance.configuration, in: WidgetContext(family: instance.family)) }
        #expect(try home.requestedKeys() == [EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 5)])

        // The user picks Customers for the same widget.
        try home.fulfilRequests(at: clock.now)
        try registry.register(catalog.options[0].configuration(limit: 5).registration(id: "w1", kind: WidgetHome.kind, family: .systemMedium))
        for instance in try DataWidgetConfiguration.instances(ofKind: WidgetHome.kind, in: home.container) {
            _ = await provider.timeline(for: instance.configuration, in: WidgetContext(family: instance.family))
        }
        #expect(try home.requestedKeys() == [EntitySetKey(destination: "sales", entitySet: "Customers", limit: 5)])
    }

    @Test func registryParametersRoundTripAndBadOnesAreSkipped() throws {
        let chosen = DataWidgetConfiguration(destination: "sales", entitySet: "Products", limit: 4, keyField: "Name", valueField: "UnitPrice")
        #expect(try DataWidgetConfiguration(parameters: chosen.parameters) == chosen)
        #expect(throws: DataWidgetError.self) { try DataWidgetConfiguration(parameters: ["destination": "sales"]) }
        #expect(throws: DataWidgetError.self) { try DataWidgetConfiguration(parameters: ["destination": "sales", "entitySet": "X", "limit": "0"]) }
        try home.container.widgets.register(RegisteredWidget(id: "bad", kind: WidgetHome.kind, family: "systemSmall", parameters: ["destination": "sales"]))
        try home.container.widgets.register(RegisteredWidget(id: "odd", kind: WidgetHome.kind, family: "poster", parameters: chosen.parameters))
        #expect(try DataWidgetConfiguration.instances(ofKind: WidgetHome.kind, in: home.container, logger: home.log.logger).isEmpty)
        #expect(home.log.logged("skipping a widget instance"))
    }

    @Test func rowsShowTheIdentifierAndNameByDefaultOrTheChosenFields() throws {
        let page = try EntitySetPage(json: Pages.orders(2))
        #expect(page.total == 240)
        #expect(page.rows(keyField: nil, valueField: nil, entitySet: "SalesOrders").map(\.value) == ["Alpine Logistics", "Blue Harbor Retail"])
        let chosen = page.rows(keyField: "CustomerID", valueField: "Quantity", entitySet: "SalesOrders")
        #expect(chosen.map { "\($0.key)=\($0.value)" } == ["C1001=1", "C1002=2"])
        #expect(page.rows(keyField: "Missing", valueField: "DeliveryDate", entitySet: "SalesOrders").first.map { [$0.key, $0.value] } == ["–", ""])
        let products = EntitySetPage(items: [["ProductID": "P100", "Name": "Pro Monitor", "Category": "Monitors"]])
        #expect(products.rows(keyField: nil, valueField: nil, entitySet: "Products").first.map { [$0.key, $0.value] } == ["P100", "Pro Monitor"])
        #expect(throws: DataWidgetError.self) { try EntitySetPage(json: Data(#"{"items":"none"}"#.utf8)) }
    }
}
