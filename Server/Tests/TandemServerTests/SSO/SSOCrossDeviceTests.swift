import Foundation
import Logging
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The cross-device defences of SSO passcodes (RFC 10027 §6), issue 24's findings 1, 2, 7 and
/// 8: a second device cancels the transfer instead of letting the desktop approve whoever came
/// first; the desktop sees what the server observed of the claiming device; approvals expire;
/// a use after the release revokes it; passcodes are limited per user and swept.
@Suite("SSO cross-device defences")
struct SSOCrossDeviceTests {
    typealias Grant = SSOPasscodeGrantTests
    static let attacker = "tdv_" + String(repeating: "a", count: 43)
    static let victim = "tdv_" + String(repeating: "v", count: 43)

    /// A passcode for the fixture's user and app, issued by the desktop at `source`.
    static func issue(_ fixture: OAuthFlowFixture, source: String = "198.51.100.7") async throws -> (passcode: String, id: String) {
        let (passcode, record) = try await fixture.database.withStorage { storage in
            try await Grant.service(storage, clock: fixture.clock).issue(
                userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Grant.session, source: source)
        }
        return (passcode, record.id)
    }

    /// The desktop's decision, as the page makes it.
    static func decide(_ fixture: OAuthFlowFixture, _ id: String, approve: Bool) async throws -> Bool {
        fixture.clock.advance(by: Grant.step)
        return try await fixture.database.withStorage { storage in
            try await Grant.service(storage, clock: fixture.clock).decide(
                id: id, sessionHash: Grant.session, approve: approve, userID: fixture.userID, clientID: OAuthFlowFixture.clientID, source: "test")
        }
    }

    /// Seeds `database`, has the attacker's device claim a new passcode and the desktop approve
    /// it, then runs `body` with the server and the passcode.
    ///
    /// - Returns: The fixture, and how many grants its user had before.
    static func afterApproval(
        _ database: TestDatabase, _ body: @Sendable (OAuthFlowFixture, InProcessClient, String) async throws -> Void
    ) async throws -> (OAuthFlowFixture, Int) {
        let fixture = try await OAuthFlowFixture.seed(database)
        let before = try await grants(fixture)
        let (passcode, id) = try await issue(fixture)
        try await fixture.test(configure: Grant.configure) { client in
            #expect(try await Grant.redeem(client, passcode, device: attacker, clock: fixture.clock).body["error"] as? String == "authorization_pending")
            #expect(try await decide(fixture, id, approve: true))
            try await body(fixture, client, passcode)
        }
        return (fixture, before)
    }

    /// The grants of the fixture's user for the fixture's app.
    static func grants(_ fixture: OAuthFlowFixture) async throws -> Int {
        try await fixture.database.withStorage { storage in
            try await storage.connector.withConnection { database in
                try await database.raw("""
                    SELECT COUNT(*) AS n FROM token_families
                    WHERE user_id = \(bind: fixture.userID) AND client_id = \(bind: OAuthFlowFixture.clientID)
                    """).first()?.decode(column: "n", as: Int.self) ?? 0
            }
        }
    }

    @Test("a second device after the claim cancels the transfer: nobody is offered Approve, nobody gets tokens", arguments: TestBackend.allCases)
    func secondDeviceCancels(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let before = try await Self.grants(fixture)
            let (passcode, id) = try await Self.issue(fixture)
            try await fixture.test(configure: Grant.configure) { client in
                let first = try await Grant.redeem(client, passcode, device: Self.attacker, clock: fixture.clock)
                #expect(first.body["error"] as? String == "authorization_pending")
                let second = try await Grant.redeem(client, passcode, device: Self.victim, clock: fixture.clock)
                #expect(second.body["error"] as? String == "invalid_grant")

                #expect(try await !Self.decide(fixture, id, approve: true), "nothing is left to approve")
                fixture.clock.advance(by: Grant.pollInterval)
                let afterwards = try await Grant.redeem(client, passcode, device: Self.attacker, clock: fixture.clock)
                #expect(afterwards.body["error"] as? String == "access_denied")
                #expect((afterwards.body["error_description"] as? String)?.contains("two devices") == true, "\(afterwards.body)")
                #expect(afterwards.body["access_token"] == nil)
            }
            let record = try #require(try await database.withStorage { try await $0.sso.ssoPasscode(id: id) })
            #expect(record.state == .cancelled)
            #expect(SSOEndpoint.status(of: record)["state"] as? String == "cancelled", "the desktop page says what happened")
            #expect(try await Self.grants(fixture) == before, "no grant was released")
            #expect(try await Grant.audit(database) == ["sso.issued", "sso.claimed", "sso.contested"])
        }
    }

    @Test("a second device after the approval cancels it before the tokens are collected", arguments: TestBackend.allCases)
    func secondDeviceAfterApproval(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let (fixture, before) = try await Self.afterApproval(database) { fixture, client, passcode in
                #expect(try await Grant.redeem(client, passcode, device: Self.victim, clock: fixture.clock).body["error"] as? String == "invalid_grant")
                let collect = try await Grant.redeem(client, passcode, device: Self.attacker, clock: fixture.clock)
                #expect(collect.body["error"] as? String == "access_denied", "\(collect.body)")
            }
            #expect(try await Self.grants(fixture) == before)
            #expect(try await Grant.audit(database) == ["sso.issued", "sso.claimed", "sso.approved", "sso.contested"])
        }
    }

    @Test("a second device after the release revokes the released grant at once", arguments: TestBackend.allCases)
    func reuseRevokes(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await Grant.addUnconfirmedApp(fixture)
            let (passcode, _) = try await database.withStorage { storage in
                try await Grant.service(storage, clock: fixture.clock).issue(
                    userID: fixture.userID, clientID: "kiosk-sso", sessionHash: Grant.session, source: "test")
            }
            try await fixture.test(configure: Grant.configure) { client in
                let first = try await Grant.redeem(client, passcode, clientID: "kiosk-sso", device: Self.attacker, clock: fixture.clock)
                let accessToken = try #require(first.body["access_token"] as? String)
                let refreshToken = try #require(first.body["refresh_token"] as? String)
                let second = try await Grant.redeem(client, passcode, clientID: "kiosk-sso", device: Self.victim, clock: fixture.clock)
                #expect(second.body["error"] as? String == "invalid_grant")

                #expect(try await client.get("v1/destinations", headers: ["Authorization": "Bearer \(accessToken)"]).status == 401)
                let refresh = try await client.postForm("oauth/token", [
                    ("grant_type", "refresh_token"), ("client_id", "kiosk-sso"), ("refresh_token", refreshToken),
                ])
                #expect(refresh.status == 400, "the released refresh token is dead too")
            }
            #expect(try await Grant.audit(database, clientID: "kiosk-sso") == ["sso.issued", "sso.redeemed", "sso.reuse", "sso.grant-revoked"])
        }
    }

    @Test("a release recorded after a reuse is revoked before anything of it leaves the server")
    func releaseAfterReuseIsRevoked() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await database.withStorage { storage in
                let service = Grant.service(storage, clock: fixture.clock)
                let (passcode, record) = try await service.issue(
                    userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Grant.session, source: "test")
                #expect(try await service.redeem(
                    passcode: passcode, clientID: OAuthFlowFixture.clientID, deviceSecret: Self.attacker, deviceLabel: "x", confirmation: false,
                    source: "test") == .granted(userID: fixture.userID))
                // The reuse lands between the redemption and the release's record.
                let reuse = try await service.redeem(
                    passcode: passcode, clientID: OAuthFlowFixture.clientID, deviceSecret: Self.victim, deviceLabel: "y", confirmation: false,
                    source: "test")
                guard case .reused(_, let released) = reuse else { Issue.record("not a reuse: \(reuse)"); return }
                #expect(released == nil, "nothing was recorded yet")
                #expect(try await !service.recordRelease(passcode: passcode, familyID: "family-1"), "the late release is refused")
                #expect(try await storage.sso.ssoPasscode(id: record.id)?.familyID == nil)
            }
        }
    }

    @Test("an approval expires: tokens not collected within the release window are never released", arguments: TestBackend.allCases)
    func approvalExpires(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let (fixture, before) = try await Self.afterApproval(database) { fixture, client, passcode in
                fixture.clock.advance(by: .seconds(60))
                let late = try await Grant.redeem(client, passcode, device: Self.attacker, clock: fixture.clock)
                #expect(late.body["error"] as? String == "expired_token", "\(late.body)")
                #expect(late.body["access_token"] == nil)
            }
            #expect(try await Self.grants(fixture) == before)
            #expect(try await Grant.audit(database) == ["sso.issued", "sso.claimed", "sso.approved", "sso.uncollected"])
        }
    }

    @Test("the desktop sees what the server observed: the address against its own, the user agent, the time, the label as given")
    func desktopSeesTheObservedDevice() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await database.withStorage { storage in
                let service = Grant.service(storage, clock: fixture.clock)
                for (claimSource, sameNetwork) in [("203.0.113.9", false), ("198.51.100.7", true)] {
                    let (passcode, record) = try await service.issue(
                        userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Grant.session, source: "198.51.100.7")
                    fixture.clock.advance(by: Grant.step)
                    #expect(try await service.redeem(
                        passcode: passcode, clientID: OAuthFlowFixture.clientID, deviceSecret: Self.attacker, deviceLabel: "Anna's iPhone",
                        confirmation: true, source: claimSource, userAgent: "TandemHost/1 (iPhone15,2; iOS 17.5)") == .pending)
                    let status = SSOEndpoint.status(of: try #require(try await storage.sso.ssoPasscode(id: record.id)))
                    #expect(status["state"] as? String == "claimed")
                    #expect(status["device"] as? String == "Anna's iPhone")
                    #expect(status["address"] as? String == claimSource)
                    #expect(status["same_network"] as? Bool == sameNetwork)
                    #expect(status["user_agent"] as? String == "TandemHost/1 (iPhone15,2; iOS 17.5)")
                    #expect(status["claimed_at_ms"] as? Int64 == Timestamp(fixture.clock.now).milliseconds)
                }
            }
        }
    }

    @Test("a signed-in user cannot mint passcodes without limit, and expired ones are swept")
    func passcodesAreLimitedAndSwept() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(configure: { $0.ssoIssueRateLimit = RateLimitPolicy(requestsPerSecond: 0.01, burst: 3) }) { client in
                let browser = BrowserTestClient(client)
                try await SSOPageTests.signIn(browser)
                var statuses: [Int] = []
                for _ in 0..<5 { statuses.append(try await browser.get(SSOPageTests.ssoPath, headers: SSOPageTests.desktop).status) }
                #expect(statuses == [200, 200, 200, 429, 429])
            }
            try await database.withStorage { storage in
                let service = StorageMaintenanceService(database: storage, interval: .seconds(60), eventRetention: nil, logger: LogCapture.discarding)
                try await service.sweep(now: Timestamp(fixture.clock.now).adding(.seconds(3600)))
                #expect(try await Self.passcodes(storage) == 3, "an hour after expiry they are still there, for a late reuse")
                try await service.sweep(now: Timestamp(fixture.clock.now).adding(.seconds(25 * 3600)))
                #expect(try await Self.passcodes(storage) == 0)
            }
        }
    }

    @Test("the audit log is swept after its retention period")
    func auditRetention() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            _ = try await Self.issue(fixture)
            try await database.withStorage { storage in
                var service = StorageMaintenanceService(database: storage, interval: .seconds(60), eventRetention: nil, logger: LogCapture.discarding)
                service.auditRetention = .seconds(90 * 24 * 3600)
                let issued = Timestamp(fixture.clock.now)
                try await service.sweep(now: issued.adding(.seconds(89 * 24 * 3600)))
                #expect(try await storage.audit.auditEvents(clientID: nil, limit: 10).count == 1)
                try await service.sweep(now: issued.adding(.seconds(91 * 24 * 3600)))
                #expect(try await storage.audit.auditEvents(clientID: nil, limit: 10).isEmpty)
            }
        }
    }

    static func passcodes(_ storage: ServerDatabase) async throws -> Int {
        try await storage.connector.withConnection { database in
            try await database.raw("SELECT COUNT(*) AS n FROM sso_passcodes").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}
