import Crypto
import Foundation
import Logging
import TandemAPNsStandIn
import TandemPlatform
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The push sender against the local APNs stand-in over HTTP/2 and TLS, on a `ManualClock`: a
/// change sends exactly one widget push and one host push per device, and changes soon after it
/// coalesce into one more when the day's budget allows; `410` removes the token; `429` backs off
/// and sends again; the provider token is reused, and renewed when APNs says it expired.
@Suite("Push sender")
struct PushDispatcherTests {
    static let keyID = "ABCDE12345"
    static let teamID = "TEAM123456"
    static let bundleID = "com.example.tandem"

    @Test("a change sends one widgets push and one background push per device; changes soon after coalesce into one more, paced", arguments: TestBackend.allCases)
    func aChangeSendsOnePushPerToken(backend: TestBackend) async throws {
        try await Self.withSender(backend) { sender in
            let start = sender.now
            try await sender.fixture.change(sender.storage, rows: 1, at: sender.now)
            #expect(await sender.pass() == .init(sent: 2))
            let first = sender.apns.deliveries()
            #expect(first.count == 2)
            let widgets = try #require(first.first { $0.deviceToken == sender.widgets.token })
            #expect(widgets.pushType == "widgets" && widgets.topic == Self.bundleID + ".push-type.widgets" && widgets.priority == 10)
            #expect(widgets.payload == ["aps": .object(["content-changed": .bool(true)])])
            let host = try #require(first.first { $0.deviceToken == sender.host.token })
            #expect(host.pushType == "background" && host.topic == Self.bundleID && host.priority == 5)
            #expect(host.payload == ["aps": .object(["content-available": .number(1)])])
            #expect(host.collapseID == widgets.collapseID && host.collapseID != nil, "one collapse id per entity set")
            #expect(FileManager.default.fileExists(
                atPath: sender.apns.device(token: sender.widgets.token).inbox.appendingPathComponent("\(widgets.apnsID).json").path))

            sender.clock.advance(by: .seconds(60))
            try await sender.fixture.change(sender.storage, rows: 2, at: sender.now)
            sender.clock.advance(by: .seconds(60))
            try await sender.fixture.change(sender.storage, rows: 3, at: sender.now)
            #expect(await sender.pass() == .init(postponed: 2), "pushed two minutes ago: held back until the day's budget allows")
            #expect(await sender.pass() == .init(), "and not looked at again before then")
            #expect(sender.apns.deliveries().count == 2)

            // Just after midnight, the 39 WidgetKit pushes left (37 spread, 2 kept for the
            // evening) over the 22 hours to the active day's end: one every 35.6 minutes; the
            // host's 2 an hour: every 30.
            let hostDue = try #require(try await sender.storage.pushOutbox.nextDue())
            #expect(hostDue.milliseconds - start.milliseconds == 30 * 60_000)
            sender.clock.advance(to: hostDue.date)
            #expect(await sender.pass() == .init(sent: 1), "the host's push, 30 minutes after the first")
            let widgetsDue = try #require(try await sender.storage.pushOutbox.nextDue())
            let spacing = widgetsDue.milliseconds - start.milliseconds
            #expect(spacing > 35 * 60_000 && spacing < 36 * 60_000, "\(spacing) ms after the first push")
            sender.clock.advance(to: widgetsDue.date)
            #expect(await sender.pass() == .init(sent: 1), "two changes, one more push per token")
            #expect(sender.apns.deliveries().count == 4)
            #expect(await sender.providerTokens.minted == 1, "one provider token for all four sends")
            #expect(try await sender.storage.pushOutbox.pendingCount() == 0)
            let counts = try await sender.storage.pushOutbox.counts(clientID: ServerAdministration.demoClientID)
            #expect(counts[.widgets]?[.sent] == 2 && counts[.host]?[.sent] == 2)
        }
    }

    @Test("410 Unregistered removes the token; 429 backs off and the push goes on the next try")
    func unregisteredAndTooManyRequests() async throws {
        try await Self.withSender(.sqlite) { sender in
            try sender.apns.markUnregistered(token: sender.host.token)
            sender.apns.failNext(1, token: sender.widgets.token, status: 429, reason: "TooManyRequests")
            try await sender.fixture.change(sender.storage, rows: 1, at: sender.now)
            #expect(await sender.pass() == .init(refused: 1, retried: 1))
            let registrations = try await sender.storage.push.liveRegistrations(clientID: ServerAdministration.demoClientID)
            #expect(registrations.map(\.kind) == [.widgets], "the host's token is gone from the registry")
            #expect(sender.apns.deliveries().isEmpty)
            #expect(Set(sender.apns.refusals().map(\.status)) == [410, 429])

            #expect(await sender.pass() == .init(), "backing off: nothing is due yet")
            sender.clock.advance(by: .seconds(1))  // the first back-off is half a second to one
            #expect(await sender.pass() == .init(sent: 1))
            #expect(sender.apns.deliveries().map(\.deviceToken) == [sender.widgets.token])
            #expect(try await sender.storage.pushOutbox.pendingCount() == 0)
        }
    }

    @Test("the provider token is reused for its window, renewed after it, and at once when APNs says it expired")
    func providerTokensAreReusedAndRenewed() async throws {
        try await Self.withSender(.sqlite, apnsClock: ManualClock()) { sender in
            try await sender.fixture.change(sender.storage, rows: 1, at: sender.now)
            #expect(await sender.pass() == .init(sent: 2))
            #expect(await sender.providerTokens.minted == 1)

            // The server's clock is 36 minutes on (past the pacing's 35.6 between two widget
            // pushes at midnight), APNs' 61: the token is still within the server's window, but
            // APNs finds it over an hour old.
            sender.clock.advance(by: .seconds(36 * 60))
            sender.apnsClock.advance(by: .seconds(61 * 60))
            try await sender.fixture.change(sender.storage, rows: 2, at: sender.now)
            #expect(await sender.pass() == .init(sent: 2), "403 ExpiredProviderToken: renewed and sent again")
            #expect(await sender.providerTokens.minted == 2)
            #expect(Set(sender.apns.refusals().map(\.reason)) == ["ExpiredProviderToken"])

            // 106 minutes on the server's clock: the renewed token (issued at 36) is past its 50
            // minutes, and a new one is issued for the current window.
            sender.clock.advance(by: .seconds(70 * 60))
            sender.apnsClock.advance(by: .seconds(70 * 60))
            try await sender.fixture.change(sender.storage, rows: 3, at: sender.now)
            #expect(await sender.pass() == .init(sent: 2))
            #expect(await sender.providerTokens.minted == 3, "a token past its window is replaced before APNs refuses it")
            #expect(Set(sender.apns.refusals().map(\.reason)) == ["ExpiredProviderToken"])
        }
    }

    @Test("two servers (or one restarted) within a window present the same claims: APNs sees no token update")
    func instancesShareTheWindowsClaims() async throws {
        let key = P256.Signing.PrivateKey()
        let credentials = APNsCredentials(keyID: Self.keyID, teamID: Self.teamID, bundleID: Self.bundleID, privateKey: key)
        let start = Timestamp(milliseconds: 1_893_456_000_000 + 7 * 60_000)  // seven minutes into a window
        let first = try await APNsProviderTokens().token(for: credentials, now: start)
        let restarted = try await APNsProviderTokens().token(for: credentials, now: start.adding(.seconds(30 * 60)))
        let claims = { (token: String) in token.split(separator: ".").dropFirst().first.map(String.init) }
        #expect(first != restarted, "ES256 signatures differ")
        #expect(claims(first) == claims(restarted), "but the claims, iat included, are the same")
        let next = try await APNsProviderTokens().token(for: credentials, now: start.adding(.seconds(45 * 60)))
        #expect(claims(next) != claims(first), "the next window has the next iat")
    }

    /// A seeded database with one device registered for both kinds, the app's APNs key, a
    /// running stand-in that knows the device's two tokens, and a sender on `clock`.
    struct Sender: Sendable {
        let storage: ServerDatabase
        let fixture: PushFixture
        let apns: APNsStandIn
        let host: APNsStandInDevice
        let widgets: APNsStandInDevice
        let dispatcher: PushDispatcher
        let client: APNsClient
        let clock: ManualClock
        let apnsClock: ManualClock

        var providerTokens: APNsProviderTokens { dispatcher.providerTokens }
        var now: Timestamp { Timestamp(clock.now) }

        /// One pass of the sender.
        func pass() async -> PushDispatcher.PassReport {
            await dispatcher.sendDue(using: client)
        }
    }

    /// Runs `body` with a ``Sender``; the stand-in runs on `apnsClock` (default: the server's).
    static func withSender(
        _ backend: TestBackend, apnsClock: ManualClock? = nil, _ body: @Sendable (Sender) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        let devices = try TemporaryDirectory()
        let key = P256.Signing.PrivateKey()
        let apns = try await APNsStandIn.start(
            APNsStandInConfiguration(
                providerKeys: [APNsStandInProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey)],
                bundleIDs: [bundleID], devicesDirectory: devices.url, clock: apnsClock ?? clock),
            logger: Logger(label: "test.apns"))
        var settings = PushSettings()
        settings.productionURL = "https://localhost:\(apns.port)"
        settings.sandboxURL = settings.productionURL
        settings.additionalTrustRootsPEM = apns.certificateAuthorityPEM
        let client = try APNsClient(settings: settings)
        do {
            try await backend.withDatabase { database in
                try await database.withStorage { storage in
                    let host = try apns.registerDevice()
                    let widgets = try apns.registerDevice()
                    var fixture = try await PushFixture.make(storage, clock: clock, hostToken: host.token, widgetsToken: widgets.token)
                    fixture.credentials = APNsCredentials(keyID: keyID, teamID: teamID, bundleID: bundleID, privateKey: key)
                    try await fixture.storeCredentials(storage)
                    let dispatcher = PushDispatcher(
                        database: storage, sealingKey: fixture.sealingKey, providerTokens: APNsProviderTokens(), settings: settings,
                        doorbell: PushDoorbell(), logger: Logger(label: "test.push"), clock: clock)
                    try await body(Sender(
                        storage: storage, fixture: fixture, apns: apns, host: host, widgets: widgets, dispatcher: dispatcher, client: client,
                        clock: clock, apnsClock: apnsClock ?? clock))
                }
            }
        } catch {
            await client.shutdown()
            try? await apns.shutdown()
            throw error
        }
        await client.shutdown()
        try await apns.shutdown()
    }
}

extension PushDispatcher.PassReport {
    init(sent: Int = 0, refused: Int = 0, retried: Int = 0, postponed: Int = 0) {
        self.init()
        self.sent = sent
        self.refused = refused
        self.retried = retried
        self.postponed = postponed
    }
}
