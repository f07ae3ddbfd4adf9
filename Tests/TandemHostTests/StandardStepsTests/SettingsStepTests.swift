import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets
import Testing

@Suite("The settings step caches the destinations listing for the widgets")
struct SettingsStepTests {
    @Test func onboardingStoresTheDestinationsListing() async throws {
        let fixture = try HostFixture()
        let report = try await fixture.flow(source: try HostFixture.serverSource())
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "settings") == .completed("3 entity sets offered to widgets"))

        let catalog = try #require(try DestinationCatalog.read(from: fixture.container, share: try fixture.share()))
        #expect(Self.describe(catalog) == ["hr/Employees=2", "sales/Customers=1", "sales/SalesOrders=4"])
        #expect(catalog.options.first?.title == "HR (demo) · Employees")
        let listing = try #require(fixture.server.requests.last { $0.url.path == "/v1/destinations" })
        let user = try #require(try fixture.userTokens())
        #expect(listing.headers["Authorization"] == "Bearer \(user.accessToken)", "fetched with the user's session")
    }

    @Test func theCatalogCarriesTheServersLockScreenPolicyToTheWidgets() async throws {
        // The server's default: Lock Screen widgets hide their rows.
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        #expect(configuration.lockScreenRedaction == true)
        let catalog = try #require(try DestinationCatalog.read(from: fixture.container, share: try fixture.share()))
        #expect(catalog.lockScreen == .accessoryFamilies)

        // An app that turned it off in the cockpit: the next listing the host publishes says so.
        let server = FakeTandemServer(app: FakeTandemServer.App(lockScreenRedaction: false))
        let off = try HostFixture(server: server)
        let offConfiguration = try await off.onboard()
        #expect(offConfiguration.lockScreenRedaction == false)
        let offCatalog = try #require(try DestinationCatalog.read(from: off.container, share: try off.share()))
        #expect(offCatalog.lockScreen == LockScreenRedaction.none)
    }

    @Test func theBackgroundFlowKeepsARecentListing() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        fixture.server.setDestinations([])

        let report = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "settings") == .skipped("destinations listing is recent"))
        let catalog = try DestinationCatalog.read(from: fixture.container, share: try fixture.share())
        #expect(catalog.map(Self.describe)?.count == 3)
    }

    @Test func theBackgroundFlowRefreshesAnOldListingThroughThePairedKey() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        fixture.server.setDestinations([
            FakeTandemServer.Destination(name: "stock", title: "Stock", entitySets: [FakeTandemServer.EntitySet(name: "Items", rows: [[:], [:]])]),
        ])

        let flow = Flow([ConfigurationStep(source: nil), SettingsStep(maximumAge: 0)])
        let report = try await flow.run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "settings") == .completed("1 entity set offered to widgets"))
        let catalog = try #require(try DestinationCatalog.read(from: fixture.container, share: try fixture.share()))
        #expect(Self.describe(catalog) == ["stock/Items=2"])
        #expect(!fixture.vault.isUnlocked)
    }

    @Test func withoutExtensionAccessThereIsNoListingToKeep() async throws {
        let fixture = try HostFixture()
        let flow = Flow([
            ConfigurationStep(source: try HostFixture.serverSource()), VaultStep(protection: .deviceOnly), AuthenticationStep(), SettingsStep(),
        ])
        let report = try await flow.run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "settings") == .skipped("extension access is not enabled"))
        #expect(!fixture.server.requests.contains { $0.url.path == "/v1/destinations" })
    }

    private static func describe(_ catalog: DestinationCatalog) -> [String] {
        catalog.options.map { "\($0.destination)/\($0.entitySet)=\($0.count.map(String.init) ?? "unknown")" }
    }
}
