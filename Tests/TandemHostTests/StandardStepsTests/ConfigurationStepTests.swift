import Foundation
import TandemAuth
import TandemHost
import TandemProtocol
import TandemVault
import Testing

@Suite("The configuration step reads its source and shares the result")
struct ConfigurationStepTests {
    static let json = """
        {"server_url": "https://tandem.test", "client_id": "tandem-demo", "redirect_uri": "tandemdemo://oauth/callback",
         "url_scheme": "tandemdemo", "security_mode": "oauth", "scope": "data.read offline_access",
         "passcode_policy": {"minimum_length": 10, "required_character_classes": ["digit"], "maximum_attempts": 4,
                             "attempts_before_delay": 2, "initial_delay_seconds": 30, "maximum_delay_seconds": 600,
                             "on_limit": "wipe", "lock_seconds": null}}
        """

    @Test func aJSONConfigurationIsSavedAndKeptForTheNextSteps() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let context = fixture.context()
        let report = try await Flow([ConfigurationStep(source: .json(Self.json), save: { saved.append($0) })]).run(.onboard, in: context)

        let expected = ClientConfiguration(
            serverURL: FakeTandemServer.base, clientID: "tandem-demo", redirectURI: URL(string: "tandemdemo://oauth/callback"),
            urlScheme: "tandemdemo", securityMode: .oauth, scopes: ["data.read", "offline_access"],
            passcodePolicy: PasscodePolicyDocument(
                minimumLength: 10, requiredCharacterClasses: [.digit], maximumAttempts: 4, attemptsBeforeDelay: 2,
                initialDelaySeconds: 30, maximumDelaySeconds: 600, onLimit: .wipe))
        #expect(saved.all == [expected])
        #expect(context.configuration == expected)
        #expect(report.result(of: "configuration") == .completed("client tandem-demo at tandem.test"))
        #expect(fixture.server.requests.isEmpty, "compiled-in JSON needs no server")
    }

    @Test func brokenJSONFailsWithInvalidConfigurationAndSavesNothing() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let context = fixture.context()
        let broken = String(Self.json.dropLast(3))
        let flow = Flow([ConfigurationStep(source: .json(broken), save: { saved.append($0) })])

        let error = await #expect(throws: FlowError.self) { try await flow.run(.onboard, in: context) }
        guard case .stepFailed("configuration", .onboard, let underlying)? = error, case .invalidConfiguration? = underlying as? AuthError else {
            Issue.record("expected the configuration step to fail with invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(saved.all.isEmpty)
        #expect(context.configuration == nil)
    }

    @Test func aLinkToAnAllowedServerIsAccepted() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let configuration = try ClientConfiguration(json: Self.json)
        let link = LinkConfigurationProvider.link(for: configuration, base: URL(string: "tandemdemo://onboard")!)
        let allowlist = try ServerAllowlist([URL(string: "https://TANDEM.test/")!])
        let context = fixture.context()

        try await Flow([ConfigurationStep(source: .link(link, allowedServers: allowlist), save: { saved.append($0) })]).run(.onboard, in: context)
        #expect(saved.all == [configuration])
        #expect(context.configuration == configuration)
    }

    @Test func aLinkToAServerOutsideTheAllowlistIsRefusedAndNothingSaved() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        var configuration = try ClientConfiguration(json: Self.json)
        configuration.serverURL = URL(string: "https://tandem.attacker.example")!
        let link = LinkConfigurationProvider.link(for: configuration, base: URL(string: "tandemdemo://onboard")!)
        let context = fixture.context()
        let flow = Flow([
            ConfigurationStep(source: .link(link, allowedServers: try ServerAllowlist([FakeTandemServer.base])), save: { saved.append($0) }),
        ])

        let error = await #expect(throws: FlowError.self) { try await flow.run(.onboard, in: context) }
        guard case .stepFailed("configuration", .onboard, let underlying)? = error, case .serverNotAllowed? = underlying as? AuthError else {
            Issue.record("expected serverNotAllowed from the configuration step, got \(String(describing: error))")
            return
        }
        #expect(saved.all.isEmpty)
        #expect(context.configuration == nil)
    }

    @Test func theServerSourceReadsTheAppsConfigurationEndpoint() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let context = fixture.context()
        try await Flow([ConfigurationStep(source: try HostFixture.serverSource(), save: { saved.append($0) })]).run(.onboard, in: context)

        let configuration = try #require(saved.all.first)
        #expect(configuration.serverURL == FakeTandemServer.base)
        #expect(configuration.clientID == "tandem-demo")
        #expect(configuration.redirectURI == URL(string: FakeTandemServer.redirectURI))
        #expect(configuration.securityMode == .oauth)
        #expect(configuration.scopes == ["data.read", "data.write", "events.write", "offline_access", "actions"])
        #expect(configuration.passcodePolicy.map(PasscodePolicy.init) == FakeTandemServer.App().passcodePolicy, "the server's policy, not the default")
        #expect(context.configuration == configuration)
        #expect(fixture.server.requests.map(\.url.path) == ["/v1/apps/tandem-demo/configuration"])
    }

    @Test func anUnknownClientAtTheServerFailsWithItsStatus() async throws {
        let fixture = try HostFixture()
        let source = ConfigurationStep.Source.server(
            FakeTandemServer.base, clientID: "someone-else", allowedServers: try ServerAllowlist([FakeTandemServer.base]))
        let context = fixture.context()

        let error = await #expect(throws: FlowError.self) { try await Flow([ConfigurationStep(source: source)]).run(.onboard, in: context) }
        guard case .stepFailed("configuration", .onboard, let underlying)? = error, case .server(404, "not_found", _)? = underlying as? AuthError else {
            Issue.record("expected the server's 404, got \(String(describing: error))")
            return
        }
        #expect(context.configuration == nil)
    }

    @Test func restoringFetchesTheServersPoliciesAndKeepsTheSavedOnesWhenItCannot() async throws {
        let fixture = try HostFixture()
        let saved = Recorder<ClientConfiguration>()
        let step = ConfigurationStep(source: nil, save: { saved.append($0) })
        let onboarding = fixture.context()
        _ = try await Flow([ConfigurationStep(source: try HostFixture.serverSource())]).run(.onboard, in: onboarding)
        let configuration = try #require(onboarding.configuration)
        #expect(configuration.lockScreenRedaction == true && !configuration.dpopRequired)

        let unchanged = try await Flow([step]).run(.restore, in: fixture.context(configuration: configuration))
        #expect(unchanged.result(of: "configuration") == .completed("saved configuration of client tandem-demo, the server's policies unchanged"))

        fixture.server.state.withLock { state in
            state.app.lockScreenRedaction = false
            state.app.dpopRequired = true
        }
        let context = fixture.context(configuration: configuration)
        let report = try await Flow([step]).run(.restore, in: context)
        #expect(report.result(of: "configuration") == .completed("saved configuration of client tandem-demo, with the server's policies as they are now"))
        #expect(context.configuration?.lockScreenRedaction == false && context.configuration?.dpopRequired == true, "an administrator's change reaches the phone")
        #expect(saved.all.last == context.configuration)
        #expect(context.configuration?.serverURL == configuration.serverURL && context.configuration?.redirectURI == configuration.redirectURI)

        // Offline: the saved policies stay.
        let offline = fixture.context(configuration: configuration, transport: OfflineTransport())
        let stayed = try await Flow([step]).run(.restore, in: offline)
        #expect(stayed.result(of: "configuration") == .completed("saved configuration of client tandem-demo (the server's policies could not be fetched now)"))
        #expect(offline.configuration == configuration)
    }

    @Test func theBackgroundFlowUsesTheSavedConfigurationAndFailsWithoutOne() async throws {
        let fixture = try HostFixture()
        let step = ConfigurationStep(source: nil)
        let configuration = try ClientConfiguration(json: Self.json)

        let report = try await Flow([step]).run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "configuration") == .completed("saved configuration of client tandem-demo"))

        let error = await #expect(throws: FlowError.self) { try await Flow([step]).run(.background, in: fixture.context()) }
        guard case .stepFailed("configuration", .background, let underlying)? = error, underlying is StepFailure else {
            Issue.record("expected a StepFailure, got \(String(describing: error))")
            return
        }
    }
}
