import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets
import Testing

/// The push registration step registers the host's token at onboarding, the widgets' once the
/// extension left it, nothing again while both are unchanged, and keeps one device id.
@Suite("The push registration step registers the device's tokens when they change")
struct PushRegistrationStepTests {
    static let hostToken = Data(repeating: 0xAB, count: 32)
    static let widgetsToken = Data(repeating: 0xCD, count: 32)

    func flow(
        _ fixture: HostFixture, source: ConfigurationStep.Source? = nil, saved: Recorder<ClientConfiguration> = Recorder(),
        hostToken: Data? = Self.hostToken
    ) -> Flow {
        Flow([
            ConfigurationStep(source: source, save: { saved.append($0) }), VaultStep(protection: .deviceOnly), AuthenticationStep(), ExtensionAccessStep(),
            PushRegistrationStep(environment: .production, delivery: .direct, timeZone: { "Europe/Berlin" }, hostToken: { hostToken }),
        ])
    }

    @Test func onboardingRegistersTheHostsTokenAndTheBackgroundFlowAddsTheWidgetsOnce() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let report = try await flow(fixture, source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "push registration") == .completed("registered the host push token for 0 widgets"))
        let first = try #require(fixture.server.pushRegistrations.first)
        #expect(first.value == ["environment": "production", "host_token": String(repeating: "ab", count: 32), "time_zone": "Europe/Berlin"])
        let configuration = try #require(saved.all.last)

        let unchanged = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(unchanged.result(of: "push registration") == .skipped("push tokens unchanged"))

        // The widget extension's push handler leaves its token sealed in the shared container.
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        #expect(try fixture.container.widgetPushStatus.read(sealingKey: sealingKey) == nil, "no widgets' token registered: the widgets poll")
        try fixture.container.widgetPushToken.write(Self.widgetsToken, sealingKey: sealingKey)
        let both = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(both.result(of: "push registration") == .completed("registered the host and widgets push tokens for 0 widgets"))
        #expect(fixture.server.pushRegistrations.count == 1, "the same device id, made once")
        #expect(fixture.server.pushRegistrations[first.key]?["widgets_token"] == String(repeating: "cd", count: 32))
        #expect(try fixture.container.widgetPushStatus.read(sealingKey: sealingKey) != nil, "the widgets are told pushes reach them")
        #expect(!fixture.vault.isUnlocked, "the background flow locks the vault again")
    }

    @Test func whatThePlacedWidgetsShowIsRegisteredAndAReconfigurationRegistersAgain() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let orders = DataWidgetConfiguration(destination: "sales", entitySet: "Orders", limit: 10, keyField: "OrderID", valueField: "Status")
        try fixture.container.widgets.register(orders.registration(id: "orders-1", kind: "orders", family: .systemSmall))
        // Anyone may write the container: a record that is not a business widget is passed over.
        try fixture.container.widgets.register(RegisteredWidget(id: "odd", kind: "orders", family: "systemSmall", parameters: ["limit": "9999"]))
        _ = try await flow(fixture, source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        let device = try #require(fixture.server.pushWidgets.first?.key)
        #expect(fixture.server.pushWidgets[device] == [
            PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 4, fields: ["OrderID", "Status"], delivery: .direct),
        ], "a small widget shows four of the ten rows")
        let configuration = try #require(saved.all.last)

        let unchanged = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(unchanged.result(of: "push registration") == .skipped("push tokens unchanged"))
        let approvals = DataWidgetConfiguration(destination: "sales", entitySet: "Approvals", limit: 3)
        try fixture.container.widgets.register(approvals.registration(id: "orders-1", kind: "orders", family: .systemLarge))
        let reconfigured = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(reconfigured.result(of: "push registration") == .completed("registered the host push token for 1 widget"))
        #expect(fixture.server.pushWidgets[device] == [
            PushWidgetSubscription(destination: "sales", entitySet: "Approvals", rows: 3, fields: [], delivery: .direct),
        ], "the data chooses the fields: every field counts")
    }

    @Test func aWidgetsTokenHandedOverBeforeTheWidgetsWereArmedIsRegisteredOnceTheyAre() async throws {
        let fixture = try HostFixture()
        // WidgetKit hands the extension its token before the host armed the widgets: no sealing
        // key yet, so the push handler keeps it in the shared secret storage.
        #expect(try SharedSealingKey.load(from: fixture.sharedSecrets) == nil)
        try PendingWidgetPushToken.save(Self.widgetsToken, in: fixture.sharedSecrets)
        let saved = Recorder<ClientConfiguration>()
        let report = try await flow(fixture, source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "push registration") == .completed("registered the host and widgets push tokens for 0 widgets"))
        #expect(fixture.server.pushRegistrations.first?.value["widgets_token"] == String(repeating: "cd", count: 32))
        // Moved into the container, sealed: the keychain keeps no copy, and the next run reads it there.
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        #expect(try fixture.container.widgetPushToken.read(sealingKey: sealingKey) == Self.widgetsToken)
        #expect(try PendingWidgetPushToken.load(from: fixture.sharedSecrets) == nil)
        #expect(try fixture.container.widgetPushStatus.read(sealingKey: sealingKey) != nil)
        let configuration = try #require(saved.all.last)
        let unchanged = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(unchanged.result(of: "push registration") == .skipped("push tokens unchanged"))
    }

    @Test func aPendingTokenOfAnImpossibleLengthIsRefusedAndForgotten() throws {
        let fixture = try HostFixture()
        #expect(throws: SharedContainerError.self) { try PendingWidgetPushToken.save(Data(repeating: 1, count: 3), in: fixture.sharedSecrets) }
        // Anything with the keychain group can write the key: what is not a push token is dropped.
        try fixture.sharedSecrets.set(Data(repeating: 1, count: 3), forKey: "tandem.widgets.push-token.pending")
        #expect(try PendingWidgetPushToken.load(from: fixture.sharedSecrets) == nil)
        #expect(try fixture.sharedSecrets.data(forKey: "tandem.widgets.push-token.pending") == nil)
    }

    @Test func withoutAnyTokenThereIsNothingToRegister() async throws {
        let fixture = try HostFixture()
        let report = try await flow(fixture, source: try HostFixture.serverSource(), hostToken: nil)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "push registration") == .skipped("no push token yet"))
        #expect(fixture.server.pushRegistrations.isEmpty)
    }
}
