import Crypto
import Foundation
import Logging
import TandemAPNsStandIn
import TandemPlatform
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// A `tandem serve` process killed (SIGKILL) around a push: once after the change was written
/// to the outbox and before APNs accepted the push, once after APNs accepted it and the server
/// recorded it. The first push is sent once after the restart, the second never again. Each
/// wait is for an event (a delivery, a recorded send) with `waitUntil`'s generous deadline: a
/// send claimed when the server was killed waits for its 30 s lease.
@Suite("Push across crashes")
struct PushCrashTests {
    @Test("killed before the send, a push goes once after the restart; killed after it, never again")
    func pushesSurviveCrashesExactlyOnce() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let devices = try TemporaryDirectory()
            let key = P256.Signing.PrivateKey()
            // Real time: the server is a process of its own on the system's clock.
            let apns = try await APNsStandIn.start(
                APNsStandInConfiguration(
                    providerKeys: [APNsStandInProviderKey(keyID: PushDispatcherTests.keyID, teamID: PushDispatcherTests.teamID, publicKey: key.publicKey)],
                    bundleIDs: [PushDispatcherTests.bundleID], devicesDirectory: devices.url),
                logger: Logger(label: "test.apns"))
            defer { Task { try? await apns.shutdown() } }
            let host = try apns.registerDevice()
            let widgets = try apns.registerDevice()
            let fixture = try await database.withStorage { storage in
                var fixture = try await PushFixture.make(storage, clock: ManualClock(start: Date()), hostToken: host.token, widgetsToken: widgets.token)
                fixture.credentials = APNsCredentials(
                    keyID: PushDispatcherTests.keyID, teamID: PushDispatcherTests.teamID, bundleID: PushDispatcherTests.bundleID, privateKey: key)
                fixture.sealingKey = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests).sealingKey
                try await fixture.storeCredentials(storage)
                return fixture
            }
            let roots = database.directory.url.appendingPathComponent("apns-ca.pem")
            try Data(apns.certificateAuthorityPEM.utf8).write(to: roots)
            // No pacing to speak of: this test is about crashes, PushPacingTests about budgets.
            let arguments = [
                "--apns-url", "https://localhost:\(apns.port)", "--apns-trust-roots", roots.path, "--push-coalescing", "0",
                "--widget-pushes-per-day", "1000000", "--host-pushes-per-hour", "1000000",
            ]
            func serve() async throws -> ServerProcess {
                try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url, arguments: arguments)
            }

            // 1. APNs is failing: the change is in the outbox, every send is refused with 503.
            apns.failNext(1_000_000, token: nil, status: 503, reason: "ServiceUnavailable")
            var server = try await serve()
            try await database.withStorage { try await fixture.change($0, rows: 1, at: Timestamp(Date())) }
            try await waitUntil("the server tried both tokens") {
                Set(apns.refusals().compactMap(\.deviceToken)) == [host.token, widgets.token]
            }
            await server.kill()
            apns.clearFaults()
            #expect(apns.deliveries().isEmpty)
            #expect(try await database.withStorage { try await $0.pushOutbox.pendingCount() } == 2, "the pushes are still owed")

            // 2. Restarted, it sends each push once; killed once that is recorded, it sends none again.
            server = try await serve()
            try await waitUntil("both pushes delivered and recorded") {
                let pending = (try? await database.withStorage { try await $0.pushOutbox.pendingCount() }) ?? -1
                return apns.deliveries().count >= 2 && pending == 0
            }
            await server.kill()
            let first = apns.deliveries()
            #expect(first.count == 2 && Set(first.map(\.deviceToken)) == [host.token, widgets.token])

            // 3. Restarted again: a new change is pushed, the old one is not.
            server = try await serve()
            try await database.withStorage { try await fixture.change($0, rows: 2, at: Timestamp(Date())) }
            try await waitUntil("the new change delivered", details: "refusals \(apns.refusals())") {
                apns.deliveries().count >= 4
            }
            // The stand-in has the pushes as soon as APNs answered; the server counts each once it
            // has recorded the answer, a moment later: one of each, or the wait fails with the counts.
            var metrics = ""
            try await waitUntil("this server's sends counted, one of each", details: metrics.split(separator: "\n").filter { $0.contains("push") }.joined(separator: "; ")) {
                metrics = String(decoding: try await server.metrics().body, as: UTF8.self)
                return metrics.contains(#"tandem_pushes_sent{kind="widgets"} 1"#) && metrics.contains(#"tandem_pushes_sent{kind="host"} 1"#)
            }
            try await server.stop()
            let all = apns.deliveries()
            #expect(all.count == 4, "\(all.map(\.apnsID))")
            #expect(Set(all.map(\.apnsID)).count == 4, "no notification was sent twice")
        }
    }
}
