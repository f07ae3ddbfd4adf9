import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import TandemWidgets
import Testing

/// An app whose server requires DPoP: the host's grant is bound to the host's key (in its own
/// secret storage), the widgets' grant to the widgets' key (in the shared one), each refresh is
/// signed by its grant's key, and a widget uses its grant with the key it reads from the shared
/// storage.
@Suite("DPoP: each grant is bound to the key of the process that uses it")
struct DPoPOnboardingTests {
    let clock = ManualClock()
    let fixture: HostFixture

    init() throws {
        var app = FakeTandemServer.App()
        app.dpopRequired = true
        fixture = try HostFixture(server: FakeTandemServer(app: app, clock: clock))
    }

    @Test func onboardingBindsTheHostsGrantToTheHostsKeyAndTheWidgetsGrantToTheWidgets() async throws {
        let saved = Recorder<ClientConfiguration>()
        try await fixture.flow(source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server), clock: clock))
        let configuration = try #require(saved.all.last)
        #expect(configuration.dpopRequired)

        let hostKey = try DPoPKeyStore.host(in: fixture.vault.secretStorage).key().publicKey.thumbprint
        let widgetsKey = try DPoPKeyStore.widgets(in: fixture.sharedSecrets, makesMissingKey: false).key().publicKey.thumbprint
        #expect(hostKey != widgetsKey)
        #expect(try fixture.sharedSecrets.data(forKey: "tandem.dpop.host") == nil, "the host's key never goes to the shared storage")

        let user = try #require(try fixture.userTokens())
        let grant = try #require(try fixture.widgetsGrant())
        #expect(user.isDPoPBound)
        #expect(grant.isDPoPBound)
        #expect(fixture.server.liveFamily(ofAccessToken: user.accessToken)?.jkt == hostKey)
        #expect(fixture.server.liveFamily(ofAccessToken: grant.accessToken)?.jkt == widgetsKey)
        let proofs = fixture.server.dpopProofs
        #expect(proofs.filter { $0.grantType == "authorization_code" }.map(\.jkt) == [hostKey])
        // The exchange uses the host's token with the host's key, and binds the widgets' key.
        #expect(proofs.filter { $0.grantType == FakeTandemServer.tokenExchangeGrant }.map(\.jkt) == [hostKey])
        #expect(proofs.filter { $0.grantType == "bind:" + FakeTandemServer.tokenExchangeGrant }.map(\.jkt) == [widgetsKey])

        // A restart confirms the session with a refresh, signed by the host's key.
        let report = try await fixture.flow().run(.restore, in: fixture.context(configuration: configuration, clock: clock))
        #expect(report.result(of: "authentication") == .completed("session continues"))
        #expect(fixture.server.dpopProofs.last.map { [$0.grantType, $0.jkt] } == ["refresh_token", hostKey])
    }

    @Test func aWidgetUsesAndRefreshesItsBoundGrantWithTheKeyFromTheSharedStorage() async throws {
        let configuration = try await onboard()
        let credentials = try #require(try SharedSecretCredentials(storage: fixture.sharedSecrets).credentials())
        let client = AppClient(configuration: configuration, role: "widget", appVersion: "1.0", transport: fixture.server, clock: clock)
        let session = ExtensionSession(container: fixture.container, share: credentials.share, client: client, dpopKey: credentials.dpopKey)

        #expect(try await session.client.get(APIPath.destinations, tokens: session.coordinator).status == 200)
        let sent = try #require(fixture.server.requests.last)
        #expect(sent.headers["Authorization"]?.hasPrefix("DPoP ") == true)

        // Past the grant's expiry the widget refreshes it, signed by the widgets' key.
        clock.advance(by: .seconds(600))
        #expect(try await session.client.get(APIPath.destinations, tokens: session.coordinator).status == 200)
        let widgetsKey = try DPoPKeyStore.widgets(in: fixture.sharedSecrets).key().publicKey.thumbprint
        #expect(fixture.server.dpopProofs.last.map { [$0.grantType, $0.jkt] } == ["refresh_token", widgetsKey])
        #expect(try fixture.widgetsGrant()?.isDPoPBound == true)
    }

    @Test func aWidgetWithoutTheWidgetsKeyGetsATypedErrorAndMakesNoKey() async throws {
        let configuration = try await onboard()
        try fixture.sharedSecrets.removeData(forKey: "tandem.dpop.widgets")
        let credentials = try #require(try SharedSecretCredentials(storage: fixture.sharedSecrets).credentials())
        let client = AppClient(configuration: configuration, role: "widget", appVersion: "1.0", transport: fixture.server, clock: clock)
        let session = ExtensionSession(container: fixture.container, share: credentials.share, client: client, dpopKey: credentials.dpopKey)
        let before = fixture.server.requests.count
        await #expect(throws: AuthError.dpopKey("no usable DPoP key tandem.dpop.widgets is stored")) {
            try await session.client.get(APIPath.destinations, tokens: session.coordinator)
        }
        #expect(fixture.server.requests.count == before)
        #expect(try fixture.sharedSecrets.data(forKey: "tandem.dpop.widgets") == nil)
    }

    @Test func theHostsCoordinatorFindsTheHostsKeyBesideTheVault() async throws {
        let configuration = try await onboard()
        // A client built without a key, as a tool sending the host's requests would build it.
        let client = AppClient(configuration: configuration, role: "host", appVersion: "1.0", transport: fixture.server, clock: clock)
        try fixture.vault.unlock()
        defer { fixture.vault.lock() }
        let coordinator = try RefreshCoordinator.host(vault: fixture.vault, oauth: client.oauth)
        #expect(try await client.get(APIPath.destinations, tokens: coordinator).status == 200)
        clock.advance(by: .seconds(600))
        #expect(try await client.get(APIPath.destinations, tokens: coordinator).status == 200)
        let hostKey = try DPoPKeyStore.host(in: fixture.vault.secretStorage).key().publicKey.thumbprint
        #expect(fixture.server.dpopProofs.last.map { [$0.grantType, $0.jkt] } == ["refresh_token", hostKey])
    }

    @Test func whenTheAppStartsRequiringDPoPARestoreBindsBothGrants() async throws {
        fixture.server.state.withLock { $0.app.dpopRequired = false }
        var configuration = try await onboard()
        #expect(try fixture.widgetsGrant()?.isDPoPBound == false)
        #expect(try fixture.userTokens()?.isDPoPBound == false)

        fixture.server.state.withLock { $0.app.dpopRequired = true }
        configuration.dpopRequired = true
        let report = try await fixture.flow().run(.restore, in: fixture.context(configuration: configuration, clock: clock))
        #expect(report.result(of: "authentication") == .completed("session continues"))
        #expect(report.result(of: "extension access") == .completed("widgets re-armed with a new grant"))
        #expect(try fixture.userTokens()?.isDPoPBound == true)
        let grant = try #require(try fixture.widgetsGrant())
        let widgetsKey = try DPoPKeyStore.widgets(in: fixture.sharedSecrets, makesMissingKey: false).key().publicKey.thumbprint
        #expect(fixture.server.liveFamily(ofAccessToken: grant.accessToken)?.jkt == widgetsKey)
    }

    private func onboard() async throws -> ClientConfiguration {
        let saved = Recorder<ClientConfiguration>()
        try await fixture.flow(source: try HostFixture.serverSource(), saved: saved)
            .run(.onboard, in: fixture.context(browser: FakeSignInBrowser(server: fixture.server), clock: clock))
        return try #require(saved.all.last)
    }
}
