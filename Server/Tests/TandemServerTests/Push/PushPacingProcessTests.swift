import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import TandemAPNsStandIn
import TandemPlatform
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Pushes reach only the devices whose widgets show what changed, and the pacing of each
/// device's pushes lives in the database: `tandem serve` processes on the system's clock, pushing
/// through the local APNs stand-in.
@Suite("Push subscriptions and pacing across processes", .serialized)
struct PushPacingProcessTests {
    @Test("two devices, one showing sales/Orders and one sales/Approvals: a change to sales/Orders sends exactly one widget push, to the first")
    func aChangeReachesOnlyTheDeviceShowingIt() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let apns = try await StandIn.start()
            defer { Task { try? await apns.server.shutdown() } }
            let orders = (host: try apns.server.registerDevice(), widgets: try apns.server.registerDevice())
            let approvals = (host: try apns.server.registerDevice(), widgets: try apns.server.registerDevice())
            let signer = try await database.withStorage { storage in
                var fixture = try await PushFixture.make(storage, clock: ManualClock(start: Date()), widgets: [])
                fixture.credentials = apns.credentials
                fixture.sealingKey = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests).sealingKey
                try await fixture.storeCredentials(storage)
                let keys = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests)
                return try await AccessTokenSigner(signingKey: keys.signingKey, issuer: "https://auth.tandem.test")
            }
            let server = try await ServerProcess(
                database: database.argument, graceSeconds: 5, scratch: database.directory.url, arguments: try apns.arguments(in: database))

            // Each phone's host registers its tokens and what its widget shows, over HTTP.
            for (device, tokens, entitySet) in [("orders-phone", orders, "Orders"), ("approvals-phone", approvals, "Approvals")] {
                let token = try await Self.hostToken(database, signer: signer)
                let document = PushDeviceTokensDocument(
                    environment: .sandbox, hostToken: tokens.host.token, widgetsToken: tokens.widgets.token,
                    widgets: [PushWidgetSubscription(destination: "sales", entitySet: entitySet, rows: 4, fields: ["id", "customer"], delivery: .direct)],
                    timeZone: "UTC")
                var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/push/devices/\(device)"))
                request.httpMethod = "PUT"
                request.httpBody = try JSONEncoder().encode(document)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                let answer = try await HTTPTestClient().send(request)
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            }

            _ = try await database.withStorage { storage in
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Orders", rows: PushOutboxTests.rows(3), now: Timestamp(Date()))
            }
            try await waitUntil("the change sent and recorded", details: "deliveries \(apns.server.deliveries().map(\.deviceToken))") {
                let pending = try await database.withStorage { try await $0.pushOutbox.pendingCount() }
                return !apns.server.deliveries().isEmpty && pending == 0
            }
            // Both servers' outboxes are empty now: nothing else is owed to anyone.
            let deliveries = apns.server.deliveries()
            #expect(deliveries.map(\.deviceToken) == [orders.widgets.token], "one WidgetKit push, to the phone showing the orders")
            #expect(deliveries.first?.pushType == "widgets")
            try await server.stop()
        }
    }

    @Test("two servers on PostgreSQL pace one device as one, and a restarted server keeps the pace")
    func pacingIsSharedAndSurvivesRestarts() async throws {
        try await TestBackend.postgres.withDatabase { database in
            let apns = try await StandIn.start()
            defer { Task { try? await apns.server.shutdown() } }
            let host = try apns.server.registerDevice()
            let widgets = try apns.server.registerDevice()
            let widgetsOnly = [
                PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 4, delivery: .direct),
                PushWidgetSubscription(destination: "sales", entitySet: "Customers", rows: 4, delivery: .direct),
            ]
            let fixture = try await database.withStorage { storage in
                var fixture = try await PushFixture.make(
                    storage, clock: ManualClock(start: Date()), hostToken: host.token, widgetsToken: widgets.token, widgets: widgetsOnly)
                fixture.credentials = apns.credentials
                fixture.sealingKey = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests).sealingKey
                try await fixture.storeCredentials(storage)
                return fixture
            }
            // At least an hour between two WidgetKit pushes, whatever the time of day.
            let arguments = try apns.arguments(in: database) + ["--push-coalescing", "3600"]
            func serve() async throws -> ServerProcess {
                try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url, arguments: arguments)
            }
            var first = try await serve()
            let second = try await serve()

            // 1. A first change goes at once, from one of the two servers.
            try await database.withStorage { try await fixture.change($0, rows: 1, at: Timestamp(Date())) }
            try await waitUntil("the first change pushed and recorded") {
                try await database.withStorage { try await $0.pushOutbox.pendingCount() } == 0 && !apns.server.deliveries().isEmpty
            }
            let pushedAt = try #require(try await Self.pacing(database, fixture)?.lastSentAt)

            // 2. A second change soon after: whichever server looks, it holds the push back by the
            //    pace the other one recorded.
            try await database.withStorage { try await fixture.change($0, rows: 2, at: Timestamp(Date())) }
            try await waitUntil("the second change postponed") {
                try await Self.due(database).first.map { $0.milliseconds >= pushedAt.milliseconds + 3_600_000 } ?? false
            }

            // 3. Both stopped, one restarted: a change to the other set it shows is held back too.
            await first.kill()
            await second.kill()
            first = try await serve()
            _ = try await database.withStorage { storage in
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Customers", rows: PushOutboxTests.rows(2), now: Timestamp(Date()))
            }
            try await waitUntil("the restarted server postponed the new change") {
                let due = try await Self.due(database)
                return due.count == 2 && due.allSatisfy { $0.milliseconds >= pushedAt.milliseconds + 3_600_000 }
            }
            #expect(apns.server.deliveries().count == 1, "one push in all: \(apns.server.deliveries().map(\.apnsID))")
            let pacing = try #require(try await Self.pacing(database, fixture))
            #expect(pacing.sentInDay == 1 || pacing.dayStart.milliseconds > pushedAt.milliseconds, "one slot of the day's budget spent")
            #expect(apns.server.deliveries().allSatisfy { $0.deviceToken == widgets.token })
            try await first.stop()
        }
    }

    /// The APNs stand-in, its key, and the arguments that point a server at it.
    struct StandIn: Sendable {
        let server: APNsStandIn
        let credentials: APNsCredentials
        let devices: TemporaryDirectory

        static func start() async throws -> StandIn {
            let key = P256.Signing.PrivateKey()
            let devices = try TemporaryDirectory()
            let server = try await APNsStandIn.start(
                APNsStandInConfiguration(
                    providerKeys: [APNsStandInProviderKey(keyID: PushDispatcherTests.keyID, teamID: PushDispatcherTests.teamID, publicKey: key.publicKey)],
                    bundleIDs: [PushDispatcherTests.bundleID], devicesDirectory: devices.url),
                logger: Logger(label: "test.apns"))
            return StandIn(
                server: server,
                credentials: APNsCredentials(
                    keyID: PushDispatcherTests.keyID, teamID: PushDispatcherTests.teamID, bundleID: PushDispatcherTests.bundleID, privateKey: key),
                devices: devices)
        }

        func arguments(in database: TestDatabase) throws -> [String] {
            let roots = database.directory.url.appendingPathComponent("apns-ca.pem")
            try Data(server.certificateAuthorityPEM.utf8).write(to: roots)
            return ["--apns-url", "https://localhost:\(server.port)", "--apns-trust-roots", roots.path]
        }
    }

    /// An access token of a new grant of the demo user for the demo app, as its host holds one.
    static func hostToken(_ database: TestDatabase, signer: AccessTokenSigner) async throws -> String {
        try await database.withStorage { storage in
            let user = try #require(try await storage.accounts.user(named: ServerAdministration.demoUsername))
            let now = Timestamp(Date())
            let family = TokenFamily(
                id: UUID().uuidString.lowercased(), clientID: ServerAdministration.demoClientID, userID: user.id,
                scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, createdAt: now, revokedAt: nil)
            try await storage.tokens.createFamily(family, tokenHash: SecretToken.hash(SecretToken.generate(.refreshToken)), expiresAt: now.adding(.seconds(3600)))
            return try await signer.sign(for: family, now: now)
        }
    }

    static func due(_ database: TestDatabase) async throws -> [Timestamp] {
        try await database.withStorage { storage in
            try await storage.pushOutbox.due(now: Timestamp(milliseconds: .max / 2), limit: 10).map(\.dueAt)
        }
    }

    static func pacing(_ database: TestDatabase, _ fixture: PushFixture) async throws -> PushPacingState? {
        try await database.withStorage { storage in
            let user = try #require(try await storage.accounts.user(named: ServerAdministration.demoUsername))
            return try await storage.pushOutbox.pacing(of: PushOwed.Device(
                clientID: ServerAdministration.demoClientID, userID: user.id, deviceID: "phone-1", kind: "widgets"))
        }
    }
}
