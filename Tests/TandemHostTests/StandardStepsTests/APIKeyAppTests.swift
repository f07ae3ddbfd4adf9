import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets
import Testing

/// An API-key app (a kiosk: no user, no sign-in) runs the same six steps: onboarding takes the
/// key from the ``APIKeyPrompt``, checks it and keeps it in the vault; the settings and
/// background steps send it; a restore finds a revoked key and asks for a new one.
@Suite("An API-key app's flows")
struct APIKeyAppTests {
    static let key = "tdk_kiosk-key-1"
    static let orders = EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 2)

    static func kioskServer(keys: Set<String> = [key]) -> FakeTandemServer {
        var app = FakeTandemServer.App()
        app.securityMode = "apiKey"
        app.redirectURIs = []
        app.apiKeys = keys
        return FakeTandemServer(app: app)
    }

    /// Onboards with `key`; the configuration saved.
    static func onboard(_ fixture: HostFixture, key: String = key) async throws -> (FlowReport, ClientConfiguration) {
        let saved = Recorder<ClientConfiguration>()
        let report = try await fixture.flow(source: try HostFixture.serverSource(), saved: saved).run(.onboard, in: fixture.context(apiKey: key))
        let configuration = try #require(saved.all.last)
        return (report, configuration)
    }

    func storedKey(_ fixture: HostFixture) throws -> String? {
        try fixture.vault.unlock()
        defer { fixture.vault.lock() }
        return try VaultAPIKeyStore(vault: fixture.vault).load()?.apiKey()
    }

    @Test func onboardingKeepsTheCheckedKeyAndTheSettingsStepSendsIt() async throws {
        let fixture = try HostFixture(server: Self.kioskServer())
        let (report, _) = try await Self.onboard(fixture)

        #expect(report.result(of: "authentication") == .completed("API key accepted"))
        #expect(report.result(of: "extension access") == .completed("extensions enabled"))
        #expect(report.result(of: "settings") == .completed("3 entity sets offered to widgets"))
        #expect(try storedKey(fixture) == Self.key)
        #expect(try fixture.container.status()?.state == .ready)
        #expect(try fixture.widgetsGrant() == nil, "no user grant to exchange: the widgets are brokered")
        #expect(!fixture.server.requests.contains { $0.url.path.hasPrefix("/oauth") }, "no sign-in, no token")
        let listings = fixture.server.requests.filter { $0.url.path == "/v1/destinations" }
        #expect(listings.count == 2, "the key's check, then the settings step")
        #expect(listings.allSatisfy { $0.headers["X-API-Key"] == Self.key && $0.headers["Authorization"] == nil })
    }

    @Test func aKeyTheServerRefusesIsNotKept() async throws {
        let fixture = try HostFixture(server: Self.kioskServer())
        let flow = fixture.flow(source: try HostFixture.serverSource())
        do {
            try await flow.run(.onboard, in: fixture.context(apiKey: "tdk_mistyped"))
            Issue.record("onboarding with a refused key succeeded")
        } catch let error {
            guard case .stepFailed(let step, .onboard, let underlying) = error else { throw error }
            #expect(step == "authentication")
            guard case .server(401, "invalid_api_key", _)? = underlying as? AuthError else {
                Issue.record("unexpected \(underlying)")
                return
            }
        }
        #expect(try storedKey(fixture) == nil)
        #expect(try fixture.container.status()?.state != .ready)
    }

    @Test func theBackgroundFlowFetchesAWidgetsRequestWithTheKey() async throws {
        let fixture = try HostFixture(server: Self.kioskServer())
        let (_, configuration) = try await Self.onboard(fixture)
        let share = try fixture.share()
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        try fixture.container.requests.submit(kind: EntitySetKey.kind, key: Self.orders, share: share, sealingKey: sealingKey)

        let report = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension communication") == .completed("1 request fulfilled"))
        let reading = try #require(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: Self.orders, using: share))
        #expect(reading.freshness == .fresh)
        let fetch = try #require(fixture.server.requests.last { $0.url.path == "/v1/destinations/sales/SalesOrders" })
        #expect(fetch.headers["X-API-Key"] == Self.key)
        #expect(!fixture.vault.isUnlocked)
    }

    @Test func aRestoreWithARevokedKeyAndNoPromptTellsTheWidgetsSignedOut() async throws {
        let fixture = try HostFixture(server: Self.kioskServer())
        let (_, configuration) = try await Self.onboard(fixture)
        fixture.server.revokeAPIKey(Self.key)

        do {
            try await fixture.flow().run(.restore, in: fixture.context(configuration: configuration))
            Issue.record("a restore with a revoked key succeeded")
        } catch let error {
            guard case .stepFailed("authentication", .restore, let underlying) = error,
                case .reauthenticationRequired? = underlying as? AuthError
            else { throw error }
        }
        #expect(try fixture.container.status()?.state == .signedOut)
        #expect(try storedKey(fixture) == nil, "a refused key is not kept")
    }

    @Test func aRestoreWithARevokedKeyTakesANewOneAndRearmsTheWidgets() async throws {
        let fixture = try HostFixture(server: Self.kioskServer(keys: [Self.key, "tdk_kiosk-key-2"]))
        let (_, configuration) = try await Self.onboard(fixture)
        let restore = fixture.flow()

        let continuing = try await restore.run(.restore, in: fixture.context(configuration: configuration))
        #expect(continuing.result(of: "authentication") == .completed("API key accepted"))

        fixture.server.revokeAPIKey(Self.key)
        let renewed = try await restore.run(.restore, in: fixture.context(configuration: configuration, apiKey: "tdk_kiosk-key-2"))
        #expect(renewed.result(of: "authentication") == .completed("stored API key refused: a new one accepted"))
        #expect(renewed.result(of: "extension access") == .completed("widgets re-armed"))
        #expect(try storedKey(fixture) == "tdk_kiosk-key-2")
        #expect(try fixture.container.status()?.state == .ready)
    }
}
