import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// A host process onboarded from the desktop's SSO code against a real server, with no password:
/// from a picture of the QR code (`--qr-image`, read by zbarimg) and from the phone page's link
/// (`open-url`). The host waits while the desktop decides; approval onboards it (the widgets'
/// grant included), denial leaves it without tokens. The desktop's side (issue, decide) is the
/// server's own service on the same database; its page is tested in process and in a browser.
@Suite("Onboarding a host with an SSO code", .serialized)
struct SSOHostOnboardingTests {
    /// The desktop: issues a passcode for the demo user as the SSO page does, and decides.
    struct Desktop {
        let service: SSOPasscodeService
        let userID: String
        let session = SecretToken.hash("tds_the-desktop-browser")

        init(_ fixture: ExtensionFixture) async throws {
            let storage = try await ServerDatabase.open(try DatabaseLocation(parsing: fixture.database), logger: LogCapture.discarding)
            service = SSOPasscodeService(
                storage: storage.sso, audit: AuditLog(storage: storage.audit, logger: LogCapture.discarding), lifetime: .seconds(60),
                decisionWindow: .seconds(120), pollInterval: .seconds(5))
            guard let user = try await storage.accounts.user(named: "demo") else { throw TestSetupError("no demo user") }
            userID = user.id
        }

        /// The onboarding link the page would show, and the passcode's public id.
        func link(_ fixture: ExtensionFixture) async throws -> (link: String, id: String) {
            let (passcode, record) = try await service.issue(userID: userID, clientID: "tandem-demo", sessionHash: session, source: "test")
            let payload = SSOOnboardingPayload(
                server: fixture.server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")), clientID: "tandem-demo",
                redirectURI: "tandem-demo://oauth/callback", passcode: passcode, expiresAt: record.expiresAt.milliseconds / 1000)
            return (payload.link(scheme: "tandem-demo"), record.id)
        }

        /// Waits until a device claimed `id`, then approves or denies it.
        func decide(_ id: String, approve: Bool, storage: ServerDatabase) async throws {
            try await waitUntil("a device claiming the passcode", poll: .milliseconds(50)) {
                try await storage.sso.ssoPasscode(id: id)?.state == .claimed
            }
            #expect(try await service.decide(id: id, sessionHash: session, approve: approve, userID: userID, clientID: "tandem-demo", source: "test"))
        }
    }

    @Test func aPictureOfTheQRCodeOnboardsTheHostOnceTheDesktopApproves() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let desktop = try await Desktop(fixture)
        let (link, id) = try await desktop.link(fixture)
        let picture = fixture.scratch.url.appendingPathComponent("qr.pbm")
        try Data(try QRCode(encoding: link).pbm().utf8).write(to: picture)

        let host = try await BackgroundTandem(
            ["host", "onboard", "--dir", fixture.dir, "--server", fixture.server.baseURL.absoluteString, "--qr-image", picture.path, "--fast-kdf", "--account", "demo"],
            scratch: fixture.scratch.url, environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        defer { host.kill() }
        let storage = try await ServerDatabase.open(try DatabaseLocation(parsing: fixture.database), logger: LogCapture.discarding)
        try await desktop.decide(id, approve: true, storage: storage)
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))
        #expect(host.status == 0, "\(host.errors.suffix(2000))")
        let result = try ExtensionFixture.lastJSON(host.output)
        #expect(result["state"] as? String == "ready")
        #expect(result["signed_in_with"] as? String == "sso")
        #expect(result["extension_grant"] as? Bool == true)
        #expect(try await storage.sso.ssoPasscode(id: id)?.deviceLabel?.hasPrefix("tandem host on ") == true)

        // The host reads data for its widget like any onboarded host.
        #expect(try await fixture.widget(["request", "--destination", "sales", "--entity-set", "Customers", "--limit", "2"]).status == 0)
        let fulfil = try await fixture.host(["fulfil"])
        let outcomes = try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["result"] as? String } == ["fulfilled"], "\(fulfil.stderr)")
        let kinds = try await storage.audit.auditEvents(clientID: "tandem-demo", limit: 10).map(\.kind)
        #expect(kinds.reversed() == ["sso.issued", "sso.claimed", "sso.approved", "sso.redeemed", "stepup.enrolled"])
    }

    /// Issue 24, finding 1: someone who saw the QR code claims it first. When the user's own
    /// phone then presents it, the transfer is cancelled: the desktop has nothing to approve and
    /// says two devices tried, and neither host gets tokens.
    @Test func aSecondHostClaimingTheSameCodeCancelsTheTransferForBoth() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let desktop = try await Desktop(fixture)
        let storage = try await ServerDatabase.open(try DatabaseLocation(parsing: fixture.database), logger: LogCapture.discarding)
        let (link, id) = try await desktop.link(fixture)

        let attacker = try await BackgroundTandem(
            ["host", "open-url", "--dir", fixture.scratch.url.appendingPathComponent("attacker").path, "--server",
             fixture.server.baseURL.absoluteString, "--fast-kdf", "--account", "demo", link],
            scratch: fixture.scratch.url, environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        defer { attacker.kill() }
        try await waitUntil("the first host claiming the code", poll: .milliseconds(50)) {
            try await storage.sso.ssoPasscode(id: id)?.state == .claimed
        }
        let owner = try await BackgroundTandem(
            ["host", "open-url", "--dir", fixture.dir, "--server", fixture.server.baseURL.absoluteString, "--fast-kdf", "--account", "demo", link],
            scratch: fixture.scratch.url, environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        defer { owner.kill() }
        try await BackgroundTandem.waitForAll([attacker, owner], timeout: .seconds(60))

        #expect(attacker.status != 0)
        #expect(attacker.errors.contains("two devices"), "\(attacker.errors.suffix(1000))")
        #expect(owner.status != 0)
        let record = try #require(try await storage.sso.ssoPasscode(id: id))
        #expect(record.state == .cancelled)
        #expect(SSOEndpoint.status(of: record)["state"] as? String == "cancelled")
        #expect(try await !desktop.service.decide(id: id, sessionHash: desktop.session, approve: true, userID: desktop.userID, clientID: "tandem-demo", source: "test"))
        let grants = try await storage.connector.withConnection { database in
            try await database.raw("SELECT COUNT(*) AS n FROM token_families WHERE client_id = 'tandem-demo'").first()?.decode(column: "n", as: Int.self)
        }
        #expect(grants == 0, "no tokens were released to anyone")
        let kinds = try await storage.audit.auditEvents(clientID: "tandem-demo", limit: 10).map(\.kind)
        #expect(kinds.reversed() == ["sso.issued", "sso.claimed", "sso.contested"])
    }

    @Test func thePhonePagesLinkOnboardsThroughOpenURLAndADenialLeavesNoTokens() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let desktop = try await Desktop(fixture)
        let storage = try await ServerDatabase.open(try DatabaseLocation(parsing: fixture.database), logger: LogCapture.discarding)

        let (denied, deniedID) = try await desktop.link(fixture)
        let refused = try await BackgroundTandem(
            ["host", "open-url", "--dir", fixture.dir, "--server", fixture.server.baseURL.absoluteString, "--fast-kdf", "--account", "demo", denied],
            scratch: fixture.scratch.url, environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        defer { refused.kill() }
        try await desktop.decide(deniedID, approve: false, storage: storage)
        try await BackgroundTandem.waitForAll([refused], timeout: .seconds(60))
        #expect(refused.status != 0)
        #expect(refused.errors.contains("access_denied"), "\(refused.errors.suffix(1000))")

        // Scanning the same code again gets nowhere; a new code from the desktop works.
        let reused = try await fixture.host(
            ["open-url", "--server", fixture.server.baseURL.absoluteString, "--fast-kdf", "--account", "demo", denied], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(reused.status != 0)
        let (link, id) = try await desktop.link(fixture)
        let host = try await BackgroundTandem(
            ["host", "open-url", "--dir", fixture.dir, "--server", fixture.server.baseURL.absoluteString, "--fast-kdf", "--account", "demo", link],
            scratch: fixture.scratch.url, environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        defer { host.kill() }
        try await desktop.decide(id, approve: true, storage: storage)
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))
        #expect(host.status == 0, "\(host.errors.suffix(2000))")
        #expect(try ExtensionFixture.lastJSON(host.output)["state"] as? String == "ready")

        // A link that names another server is refused before anything is sent.
        let foreign = try await fixture.host(
            ["open-url", "--server", "https://tandem.example.com", "--fast-kdf", "--account", "demo", link], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(foreign.status != 0)
        #expect(foreign.stderr.contains("does not trust"), "\(foreign.stderr)")
    }
}
