import Crypto
import Foundation
import Logging
import Synchronization
import TandemAPNsStandIn
import TandemPlatform
import TandemServer
import TandemTool
import TandemWidgetSimulator

/// APNs on the phone day: the local stand-in (a real HTTP/2 server over TLS on the loopback,
/// with its own test certificate authority) on the day's clock, and the server's real push
/// sender pointed at it, whose passes the day runs at each of its moments. What the stand-in
/// accepted is handed to the day as pushes to the device of the mode whose token it went to.
final class PhoneDayAPNs: Sendable {
    /// The app's APNs auth key, as Apple would issue it, and the stand-in trusts.
    struct Key: Sendable {
        let keyID = "PHONEDAY01"
        let teamID = "TANDEMTEAM"
        let bundleID = "com.example.tandem.phone-day"
        let privateKey = P256.Signing.PrivateKey()
    }

    private let standIn: APNsStandIn
    private let dispatcher: ManualPushDispatcher
    /// Each device token (lower-case hex) and the push it stands for.
    private let recipients: [String: PhoneDayPush]
    /// How many of the stand-in's deliveries the day has been handed.
    private let handedOver = Mutex(0)
    /// When the next pass has work: `nil` once the data changed (at once), else when the next
    /// owed push is due (`.distantFuture` for none).
    private let nextWork = Mutex<Date?>(nil)

    private init(standIn: APNsStandIn, dispatcher: ManualPushDispatcher, recipients: [String: PhoneDayPush]) {
        self.standIn = standIn
        self.dispatcher = dispatcher
        self.recipients = recipients
    }

    /// Starts the stand-in over the devices folder `devices`, gives the demo app on `server` an
    /// APNs key the stand-in accepts, and makes the server's sender for it.
    ///
    /// - Parameter apps: The apps that take pushes, by mode name; their devices are in `devices`.
    static func start(
        devices: URL, server: PhoneDayServer, apps: [String: PhoneDayHostApp], clock: VirtualClock, logger: Logger
    ) async throws -> PhoneDayAPNs {
        let key = Key()
        let standIn = try await APNsStandIn.start(
            APNsStandInConfiguration(
                providerKeys: [APNsStandInProviderKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.privateKey.publicKey)],
                bundleIDs: [key.bundleID], devicesDirectory: devices, clock: clock),
            logger: ToolLogger.make(label: "tandem.apns-standin"))
        do {
            try await server.setAPNsKey(key)
            var settings = PushSettings()
            settings.productionURL = "https://127.0.0.1:\(standIn.port)"
            settings.sandboxURL = settings.productionURL
            settings.additionalTrustRootsPEM = standIn.certificateAuthorityPEM
            let dispatcher = try await server.pushDispatcher(settings: settings, logger: logger)
            var recipients: [String: PhoneDayPush] = [:]
            for (mode, app) in apps {
                guard let devices = app.pushDevices else { continue }
                recipients[Hex.encode(devices.host.token)] = PhoneDayPush(mode: mode, kind: .background)
                recipients[Hex.encode(devices.widgets.token)] = PhoneDayPush(mode: mode, kind: .widgets)
            }
            return PhoneDayAPNs(standIn: standIn, dispatcher: dispatcher, recipients: recipients)
        } catch {
            try? await standIn.shutdown()
            throw error
        }
    }

    /// When the next pass has work without a new change (a push held back or tried again);
    /// `nil` for none.
    func nextPassDate() -> Date? {
        nextWork.withLock { $0 }.flatMap { $0 == .distantFuture ? nil : $0 }
    }

    /// The server's data changed: the next pass has work.
    func dataChanged() {
        nextWork.withLock { $0 = nil }
    }

    /// One pass of the server's sender at the clock's time, unless nothing is due then (the
    /// outbox is read only when the data changed or an owed push fell due: a day has a pass at
    /// every minute); the pushes the stand-in accepted since the last call.
    func sendDue(now: Date) async -> [PhoneDayPush] {
        if let next = nextWork.withLock({ $0 }), now < next { return [] }
        _ = await dispatcher.sendDue()
        let due = await dispatcher.nextDue() ?? .distantFuture
        nextWork.withLock { $0 = due }
        let deliveries = standIn.deliveries()
        let new = handedOver.withLock { count in
            defer { count = deliveries.count }
            return deliveries.dropFirst(count)
        }
        return new.compactMap { recipients[$0.deviceToken] }
    }

    /// Closes the sender's connections and stops the stand-in.
    func stop() async {
        await dispatcher.shutdown()
        try? await standIn.shutdown()
    }
}
