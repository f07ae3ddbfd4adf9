import Foundation
import Logging
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The SSO passcode grant at the token endpoint, on both databases: one-time, short-lived,
/// bound to the app's client and to the device that claims it, released only after the
/// desktop approves (where the app asks for it), rate-limited per source, and audited.
@Suite("SSO passcode grant")
struct SSOPasscodeGrantTests {
    static let grant = GrantType.ssoPasscode.rawValue
    static let device = "tdv_" + String(repeating: "d", count: 43)
    static let session = SecretToken.hash("tds_desktop-session")
    /// How far the clock moves between two audited steps of a test.
    static let step = Duration.milliseconds(1)

    /// A service on `storage` as the server builds it, on the server's `clock`, to issue and
    /// decide as the desktop page does.
    static func service(_ storage: ServerDatabase, clock: ManualClock, lifetime: Duration = .seconds(60)) -> SSOPasscodeService {
        SSOPasscodeService(
            storage: storage.sso, audit: AuditLog(storage: storage.audit, logger: LogCapture.discarding), lifetime: lifetime,
            decisionWindow: .seconds(120), pollInterval: pollInterval, clock: clock)
    }

    /// A phone's redemption (or poll) of `passcode`; with `clock`, a millisecond after the test's
    /// last step, since the audit log orders events by their time.
    static func redeem(
        _ client: InProcessClient, _ passcode: String, clientID: String = OAuthFlowFixture.clientID, device: String = device,
        clock: ManualClock? = nil, userAgent: String = "TandemHost/1 (iPhone15,2; iOS 17.5)"
    ) async throws -> (status: Int, body: [String: Any]) {
        clock?.advance(by: step)
        let response = try await client.postForm(
            "oauth/token",
            [("grant_type", grant), ("client_id", clientID), ("sso_passcode", passcode), ("device_secret", device), ("device_label", "iPhone test")],
            headers: ["User-Agent": userAgent])
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:])
    }

    /// The shortest time between two polls. The server runs on the fixture's `ManualClock`, so a
    /// second poll is too soon until a test moves the clock, however slow the machine.
    static let pollInterval = Duration.seconds(5)

    /// The server's configuration for these tests: polls at ``pollInterval``.
    static func configure(_ configuration: inout TandemServerConfiguration) {
        configuration.ssoPollInterval = pollInterval
    }

    /// The kinds of the audit events of `clientID`, oldest first.
    static func audit(_ database: TestDatabase, clientID: String = OAuthFlowFixture.clientID) async throws -> [String] {
        try await database.withStorage { try await $0.audit.auditEvents(clientID: clientID, limit: 100) }.reversed().map(\.kind)
    }

    /// An SSO app whose phones need no desktop approval, in `fixture`'s database.
    static func addUnconfirmedApp(_ fixture: OAuthFlowFixture) async throws {
        try await fixture.database.withStorage { storage in
            try await storage.apps.createApp(AppRecord(
                clientID: "kiosk-sso", name: "Kiosk SSO", redirectURIs: ["kiosksso://cb"], urlScheme: "kiosksso", securityMode: .oauth,
                ssoEnabled: true, ssoConfirmation: false, createdAt: Timestamp(fixture.clock.now)))
        }
    }

    @Test("without desktop confirmation the first redemption gets tokens and a second is a reuse", arguments: TestBackend.allCases)
    func oneTimeWithoutConfirmation(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await Self.addUnconfirmedApp(fixture)
            let (passcode, _) = try await database.withStorage { storage in
                try await Self.service(storage, clock: fixture.clock).issue(userID: fixture.userID, clientID: "kiosk-sso", sessionHash: Self.session, source: "test")
            }
            try await fixture.test(configure: Self.configure) { client in
                let first = try await Self.redeem(client, passcode, clientID: "kiosk-sso", clock: fixture.clock)
                #expect(first.status == 200, "\(first.body)")
                let accessToken = try #require(first.body["access_token"] as? String)
                #expect(first.body["refresh_token"] as? String != nil)
                #expect(first.body["scope"] as? String == OAuthScope.userDefault)
                let data = try await client.get("v1/destinations", headers: ["Authorization": "Bearer \(accessToken)"])
                #expect(data.status == 200, "the grant reads the user's data")

                let again = try await Self.redeem(client, passcode, clientID: "kiosk-sso", clock: fixture.clock)
                #expect(again.status == 400)
                #expect(again.body["error"] as? String == "invalid_grant")
                let revoked = try await client.get("v1/destinations", headers: ["Authorization": "Bearer \(accessToken)"])
                #expect(revoked.status == 401, "a reuse revokes what the passcode released")
            }
            #expect(try await Self.audit(database, clientID: "kiosk-sso") == ["sso.issued", "sso.redeemed", "sso.reuse", "sso.grant-revoked"])
        }
    }

    @Test("with desktop confirmation the phone polls until approval, and only the claiming device gets the tokens", arguments: TestBackend.allCases)
    func approvalReleasesTheTokens(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let (passcode, record) = try await database.withStorage { storage in
                try await Self.service(storage, clock: fixture.clock).issue(userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Self.session, source: "test")
            }
            try await fixture.test(configure: Self.configure) { client in
                let claim = try await Self.redeem(client, passcode, clock: fixture.clock)
                #expect(claim.status == 400)
                #expect(claim.body["error"] as? String == "authorization_pending")
                let tooSoon = try await Self.redeem(client, passcode, clock: fixture.clock)
                #expect(tooSoon.body["error"] as? String == "slow_down", "\(tooSoon.body)")
                fixture.clock.advance(by: Self.pollInterval)
                let onTime = try await Self.redeem(client, passcode, clock: fixture.clock)
                #expect(onTime.body["error"] as? String == "authorization_pending", "a poll after the interval is answered: \(onTime.body)")

                let stored = try await database.withStorage { try await $0.sso.ssoPasscode(id: record.id) }
                #expect(stored?.state == .claimed)
                #expect(stored?.deviceLabel == "iPhone test")
                fixture.clock.advance(by: Self.step)
                let decided = try await database.withStorage { storage in
                    try await Self.service(storage, clock: fixture.clock).decide(
                        id: record.id, sessionHash: Self.session, approve: true, userID: fixture.userID, clientID: OAuthFlowFixture.clientID, source: "test")
                }
                #expect(decided)
                let wrongSession = try await database.withStorage { storage in
                    try await Self.service(storage, clock: fixture.clock).decide(
                        id: record.id, sessionHash: SecretToken.hash("tds_other"), approve: false, userID: fixture.userID,
                        clientID: OAuthFlowFixture.clientID, source: "test")
                }
                #expect(!wrongSession, "only the issuing session decides, once")

                let granted = try await Self.redeem(client, passcode, clock: fixture.clock)
                #expect(granted.status == 200, "\(granted.body)")
                let reused = try await Self.redeem(client, passcode, clock: fixture.clock)
                #expect(reused.body["error"] as? String == "invalid_grant")
            }
            #expect(try await Self.audit(database) == ["sso.issued", "sso.claimed", "sso.approved", "sso.redeemed", "sso.reuse", "sso.grant-revoked"])
        }
    }

    @Test("a denied device gets access_denied and never tokens", arguments: TestBackend.allCases)
    func denial(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let (passcode, record) = try await database.withStorage { storage in
                try await Self.service(storage, clock: fixture.clock).issue(userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Self.session, source: "test")
            }
            try await fixture.test(configure: Self.configure) { client in
                #expect(try await Self.redeem(client, passcode, clock: fixture.clock).body["error"] as? String == "authorization_pending")
                fixture.clock.advance(by: Self.step)
                _ = try await database.withStorage { storage in
                    try await Self.service(storage, clock: fixture.clock).decide(
                        id: record.id, sessionHash: Self.session, approve: false, userID: fixture.userID, clientID: OAuthFlowFixture.clientID, source: "test")
                }
                for _ in 0..<2 {
                    let denied = try await Self.redeem(client, passcode, clock: fixture.clock)
                    #expect(denied.status == 400)
                    #expect(denied.body["error"] as? String == "access_denied")
                    #expect(denied.body["access_token"] == nil)
                }
            }
            #expect(try await Self.audit(database) == ["sso.issued", "sso.claimed", "sso.denied"])
        }
    }

    @Test("an expired passcode, another client's, an unknown one: invalid_grant, each audited", arguments: TestBackend.allCases)
    func refusals(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await Self.addUnconfirmedApp(fixture)
            let (expired, fresh) = try await database.withStorage { storage in
                let service = Self.service(storage, clock: fixture.clock)
                let expired = try await service.issue(
                    userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Self.session, source: "test")
                fixture.clock.advance(by: .seconds(120))
                let fresh = try await service.issue(userID: fixture.userID, clientID: OAuthFlowFixture.clientID, sessionHash: Self.session, source: "test")
                return (expired.passcode, fresh.passcode)
            }
            try await fixture.test(configure: Self.configure) { client in
                for (passcode, clientID) in [(expired, OAuthFlowFixture.clientID), (fresh, "kiosk-sso"), ("tdp_" + String(repeating: "A", count: 43), OAuthFlowFixture.clientID)] {
                    let refused = try await Self.redeem(client, passcode, clientID: clientID, clock: fixture.clock)
                    #expect(refused.status == 400)
                    #expect(refused.body["error"] as? String == "invalid_grant")
                    #expect(refused.body["error_description"] as? String == "the passcode is not valid", "the same words for every refusal")
                }
                // The fresh passcode was not spent by another client's attempt.
                #expect(try await Self.redeem(client, fresh, clock: fixture.clock).body["error"] as? String == "authorization_pending")
            }
            #expect(try await Self.audit(database) == ["sso.issued", "sso.issued", "sso.expired", "sso.unknown", "sso.claimed"])
            #expect(try await Self.audit(database, clientID: "kiosk-sso") == ["sso.wrong-client"])
        }
    }

    @Test("guessing from one address is stopped with 429; the refusals are audited as sampled lines that count what they leave out")
    func guessingIsRateLimited() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(configure: { configuration in
                configuration.ssoRateLimit = RateLimitPolicy(requestsPerSecond: 0.01, burst: 5)
            }) { client in
                var statuses: [Int] = []
                for guess in 0..<8 {
                    statuses.append(try await Self.redeem(client, "tdp_guess\(guess)" + String(repeating: "A", count: 38)).status)
                }
                #expect(statuses == [400, 400, 400, 400, 400, 429, 429, 429])
                fixture.clock.advance(by: .seconds(60))
                #expect(try await Self.redeem(client, "tdp_guess9" + String(repeating: "A", count: 38)).status == 429)
                let missing = try await client.postForm("oauth/token", [("grant_type", Self.grant), ("client_id", OAuthFlowFixture.clientID)])
                #expect(missing.status == 400)
            }
            let events = try await database.withStorage { try await $0.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 100) }
            #expect(events.filter { $0.kind == "sso.unknown" }.count == 1, "one line a minute per address, not one per guess")
            let limited = events.filter { $0.kind == "sso.rate-limited" }.map(\.detail)
            #expect(limited.count == 2)
            #expect(limited.first?.hasSuffix("; 2 more from this address since the last such line") == true, "\(limited)")
        }
    }
}
