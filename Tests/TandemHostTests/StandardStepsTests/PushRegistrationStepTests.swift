import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
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
            PushRegistrationStep(environment: .production, hostToken: { hostToken }),
        ])
    }

    @Test func onboardingRegistersTheHostsTokenAndTheBackgroundFlowAddsTheWidgetsOnce() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let report = try await flow(fixture, source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "push registration") == .completed("registered the host push token"))
        let first = try #require(fixture.server.pushRegistrations.first)
        #expect(first.value == ["environment": "production", "host_token": String(repeating: "ab", count: 32)])
        let configuration = try #require(saved.all.last)

        let unchanged = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(unchanged.result(of: "push registration") == .skipped("push tokens unchanged"))

        // The widget extension's push handler leaves its token sealed in the shared container.
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        try fixture.container.widgetPushToken.write(Self.widgetsToken, sealingKey: sealingKey)
        let both = try await flow(fixture).run(.background, in: fixture.context(configuration: configuration))
        #expect(both.result(of: "push registration") == .completed("registered the host and widgets push tokens"))
        #expect(fixture.server.pushRegistrations.count == 1, "the same device id, made once")
        #expect(fixture.server.pushRegistrations[first.key]?["widgets_token"] == String(repeating: "cd", count: 32))
        #expect(!fixture.vault.isUnlocked, "the background flow locks the vault again")
    }

    @Test func withoutAnyTokenThereIsNothingToRegister() async throws {
        let fixture = try HostFixture()
        let report = try await flow(fixture, source: try HostFixture.serverSource(), hostToken: nil)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "push registration") == .skipped("no push token yet"))
        #expect(fixture.server.pushRegistrations.isEmpty)
    }
}
