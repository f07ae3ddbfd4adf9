import Foundation
import TandemAuth
import TandemHost
import TandemProtocol
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault
import Testing

/// Onboarding from the desktop's SSO code: the link is checked (allowlist, this app, expiry),
/// the configuration read from its server, and the passcode redeemed instead of a sign-in —
/// no browser, no password — once the desktop approves; a denial leaves no tokens.
@Suite("Onboarding with an SSO code")
struct SSOOnboardingTests {
    static let passcode = "tdp_" + String(repeating: "P", count: 43)

    /// The link with the custom scheme, or (`universal`) the universal link of the app's
    /// associated domain (issue 24, finding 3).
    static func link(
        passcode: String = passcode, clientID: String = FakeTandemServer.clientID, expiresIn: TimeInterval = 60, now: Date = Date(),
        universal: Bool = false
    ) -> URL {
        let payload = SSOOnboardingPayload(
            server: FakeTandemServer.base.absoluteString, clientID: clientID, redirectURI: FakeTandemServer.redirectURI, passcode: passcode,
            expiresAt: Int64(now.timeIntervalSince1970 + expiresIn))
        return URL(string: universal ? payload.universalLink(host: "links.example.com") : payload.link(scheme: "tandemdemo"))!
    }

    static let pollInterval = Duration.seconds(5)

    static func source(_ link: URL) throws -> ConfigurationStep.Source {
        .ssoLink(
            link, clientID: FakeTandemServer.clientID, allowedServers: try ServerAllowlist([FakeTandemServer.base]), deviceLabel: "Ada's phone",
            pollInterval: pollInterval)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func theDesktopsApprovalSignsTheAppInWithoutABrowser(universal: Bool) async throws {
        let fixture = try HostFixture()
        fixture.server.issueSSO(Self.passcode)
        let server = fixture.server
        let clock = ManualClock(start: Date())
        let approver = Task {
            try await clock.waitForSleepers()  // the first poll found the approval pending; the app waits its interval
            #expect(server.ssoDeviceLabel(Self.passcode) == "Ada's phone", "the desktop sees who asks before it decides")
            server.decideSSO(Self.passcode, approve: true)
            clock.advance(by: Self.pollInterval)
        }
        let report = try await fixture.flow(source: try Self.source(Self.link(now: clock.now, universal: universal)))
            .run(.onboard, in: fixture.context(clock: clock))
        try await approver.value
        #expect(report.result(of: "authentication") == .completed("signed in with the desktop's SSO code"))
        #expect(report.result(of: "extension access") == .completed("extensions enabled, widgets' grant issued"))
        #expect(server.ssoDeviceLabel(Self.passcode) == "Ada's phone")
        #expect(try fixture.userTokens() != nil)
        #expect(try fixture.container.status()?.state == .ready)
        #expect(!server.requests.contains { $0.url.path == "/oauth/authorize" }, "no browser sign-in")
        let polls = server.tokenRequests(grantType: FakeTandemServer.ssoPasscodeGrant)
        #expect(polls.count == 2, "pending first, tokens after the approval")
        #expect(Set(polls.compactMap { $0["device_secret"] }).count == 1, "one device secret on every poll")
    }

    /// Issue 24, finding 15: any web page can open `scheme://sso?config=…` with its sender's own
    /// passcode. The app names the account the server released before it keeps anything; on no,
    /// the tokens are revoked and the vault keeps none.
    @Test func theUserIsAskedWhichAccountAndNoKeepsNothing() async throws {
        let fixture = try HostFixture()
        fixture.server.issueSSO(Self.passcode)
        fixture.server.decideSSO(Self.passcode, approve: true)
        let asked = QuestionRecorder(answer: false)
        let failure = await Self.failure(of: fixture.flow(source: try Self.source(Self.link())), in: fixture.context(confirmation: asked))
        #expect(asked.questions == ["Sign in as \(FakeTandemServer.ssoAccount)?"])
        #expect(failure?.step == "authentication")
        #expect((failure?.error as? StepFailure)?.description.contains("declined to sign in as ada") == true, "\(String(describing: failure?.error))")
        #expect(try fixture.userTokens() == nil)
        #expect(fixture.server.requests.contains { $0.url.path == "/oauth/revoke" }, "the released grant is revoked")
        #expect(fixture.server.liveFamilyCount == 0)

        let nobody = await Self.failure(of: fixture.flow(source: try Self.source(Self.link())), in: fixture.context(confirmation: nil))
        #expect(nobody?.step == "authentication", "no presenter to ask: no sign-in")
    }

    @Test func aDenialEndsTheFlowAtAuthenticationWithNoTokens() async throws {
        let fixture = try HostFixture()
        fixture.server.issueSSO(Self.passcode)
        fixture.server.decideSSO(Self.passcode, approve: false)
        let failure = await Self.failure(of: fixture.flow(source: try Self.source(Self.link())), in: fixture.context())
        #expect(failure?.step == "authentication")
        #expect(failure?.error as? AuthError == .authorizationFailed(code: "access_denied", description: "the desktop denied this device"))
        #expect(try fixture.userTokens() == nil)
    }

    @Test func anExpiredCodeAnotherAppsOrAnUntrustedServerIsRefusedBeforeAnyRequest() async throws {
        let fixture = try HostFixture()
        let expired = Self.link(expiresIn: -1)
        let otherApp = Self.link(clientID: "another-app")
        let untrusted = URL(string: SSOOnboardingPayload(
            server: "https://evil.example", clientID: FakeTandemServer.clientID, redirectURI: "x://y", passcode: Self.passcode,
            expiresAt: Int64(Date().timeIntervalSince1970 + 60)).link(scheme: "tandemdemo"))!
        let cases: [(URL, (SSOOnboardingError) -> Bool)] = [
            (expired, { if case .expired = $0 { true } else { false } }),
            (otherApp, { $0 == .otherApp("another-app") }),
            (untrusted, { $0 == .serverNotAllowed("https://evil.example") }),
            (URL(string: "tandemdemo://sso?config=%21%21")!, { $0 == .malformed(.notBase64URL) }),
        ]
        for (link, matches) in cases {
            let failure = await Self.failure(of: fixture.flow(source: try Self.source(link)), in: fixture.context())
            #expect(failure?.step == "configuration", "\(link)")
            let sso = try #require(failure?.error as? SSOOnboardingError, "\(String(describing: failure?.error))")
            #expect(matches(sso), "\(sso)")
        }
        #expect(fixture.server.requests.isEmpty, "nothing is sent for a link the app refuses")
    }

    /// A ``ConfirmationPresenter`` that records the questions and gives one answer.
    final class QuestionRecorder: ConfirmationPresenter {
        private let recorded = Recorder<String>()
        private let answer: Bool

        init(answer: Bool) { self.answer = answer }

        var questions: [String] { recorded.all }

        func confirm(_ question: String) async -> Bool {
            recorded.append(question)
            return answer
        }
    }

    /// The step and error an onboarding stopped with, or `nil` when it succeeded.
    static func failure(of flow: Flow, in context: FlowContext) async -> (step: String, error: any Error)? {
        do {
            try await flow.run(.onboard, in: context)
            return nil
        } catch {
            guard case .stepFailed(let step, _, let underlying) = error else { return ("cancelled", error) }
            return (step, underlying)
        }
    }
}
