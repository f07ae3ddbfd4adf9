import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import Testing

@Suite("The extension access step arms the widgets and re-arms them when they need it")
struct ExtensionAccessStepTests {
    @Test func onboardingPublishesReadyWithASealingKeyAndTheWidgetsGrant() async throws {
        let fixture = try HostFixture()
        let report = try await fixture.flow(source: try HostFixture.serverSource())
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server)))
        #expect(report.result(of: "extension access") == .completed("extensions enabled, widgets' grant issued"))

        #expect(try fixture.container.status()?.state == .ready)
        #expect(try SharedSealingKey.load(from: fixture.sharedSecrets) != nil)
        #expect(try fixture.vault.status().extensionAccessEnabled)
        try fixture.vault.unlock(pairedKey: try fixture.share())
        fixture.vault.lock()

        let user = try #require(try fixture.userTokens())
        let grant = try #require(try fixture.widgetsGrant())
        #expect(grant.scope == "data.read")
        #expect(grant.refreshToken != user.refreshToken, "the user's own tokens stay in the vault")
        let family = try #require(fixture.server.liveFamily(ofAccessToken: grant.accessToken))
        #expect(family.audience == "tandem-extension")
        #expect(family.parent == fixture.server.liveFamily(ofAccessToken: user.accessToken)?.id)
        let exchanges = fixture.server.tokenRequests(grantType: FakeTandemServer.tokenExchangeGrant)
        #expect(exchanges.map { $0["subject_token"] } == [user.accessToken])
    }

    @Test func restoringRearmsWidgetsThatWereToldToSignInAgain() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let oldGrant = try fixture.widgetsGrant()
        // What a widget's refresh that met invalid_grant publishes.
        try fixture.container.setStatus(SessionStatus(state: .reauthRequired, reason: "invalid_grant on refresh"))

        let context = fixture.context(configuration: configuration)
        let report = try await fixture.flow().run(.restore, in: context)
        #expect(report.result(of: "authentication") == .completed("session continues"))
        #expect(report.result(of: "extension access") == .completed("widgets re-armed with a new grant"))
        #expect(context.widgetsRearmed)
        #expect(try fixture.container.status()?.state == .ready)
        let newGrant = try #require(try fixture.widgetsGrant())
        #expect(newGrant != oldGrant)
        #expect(fixture.server.liveFamily(ofAccessToken: newGrant.accessToken)?.audience == "tandem-extension")
    }

    @Test func restoringRearmsWidgetsWhoseGrantIsMissing() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        try SharedGrantStore(container: fixture.container, share: try fixture.share()).clear()

        let report = try await fixture.flow().run(.restore, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension access") == .completed("widgets re-armed with a new grant"))
        let grant = try #require(try fixture.widgetsGrant())
        #expect(fixture.server.liveFamily(ofAccessToken: grant.accessToken) != nil)
        #expect(fixture.server.tokenRequests(grantType: FakeTandemServer.tokenExchangeGrant).count == 2)
    }
}
