import Foundation
import Logging
import Synchronization
import TandemPlatform

/// A local stand-in for Apple's push service (APNs), which Linux cannot reach: a real HTTP/2
/// server over TLS, with its own test certificate authority, that checks each request as APNs
/// does, answers with APNs' statuses and reasons, and delivers what it accepts to device folders.
///
/// ```swift
/// let apns = try await APNsStandIn.start(
///     APNsStandInConfiguration(providerKeys: [key], bundleIDs: ["com.example.tandem"], devicesDirectory: devices),
///     logger: logger)
/// let device = try apns.registerDevice()            // the iPhone gets its token
/// // … the server under test POSTs https://localhost:\(apns.port)/3/device/\(device.token),
/// // trusting apns.certificateAuthorityPEM …
/// #expect(apns.deliveries().map(\.deviceToken) == [device.token])
/// try await apns.shutdown()
/// ```
///
/// Each request is checked in this order, and the first failing check answers (with the request's
/// `apns-id`, or a new UUID, and the JSON body `{"reason": …}`):
/// 1. a fault scripted with ``failNext(_:token:status:reason:)``;
/// 2. method (405 `MethodNotAllowed`), path (404 `BadPath`), device token (400 `MissingDeviceToken`,
///    `BadDeviceToken`), repeated headers (400 `DuplicateHeaders`), `apns-id` (400 `BadMessageId`);
/// 3. the provider token (403 `MissingProviderToken`, `InvalidProviderToken`, `ExpiredProviderToken`;
///    429 `TooManyProviderTokenUpdates`);
/// 4. topic, push type, priority, expiration, collapse id and payload (400 `MissingTopic`, `BadTopic`,
///    `DeviceTokenNotForTopic`, `InvalidPushType`, `BadPriority`, `BadExpirationDate`, `BadCollapseId`,
///    `PayloadEmpty`; 413 `PayloadTooLarge`);
/// 5. the device: no folder is 400 `BadDeviceToken`, an `unregistered` file is 410 `Unregistered`
///    with its `timestamp`.
///
/// Apple's rules, as followed here:
/// - https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
/// - https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
/// - https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns
/// - https://developer.apple.com/documentation/usernotifications/pushing-background-updates-to-your-app
/// - https://developer.apple.com/documentation/widgetkit/updating-widgets-with-widgetkit-push-notifications
public final class APNsStandIn: Sendable {
    private struct Fault {
        let token: String?
        var remaining: Int
        let status: Int
        let reason: String
    }

    private struct State {
        var tokens: APNsProviderTokens
        var faults: [Fault] = []
        var deliveries: [APNsStandInDelivery] = []
        var refusals: [APNsStandInRefusal] = []
    }

    /// The port the stand-in listens on.
    public var port: Int { server.port }

    /// The test certificate authority's certificate (PEM): what a client trusts to reach the stand-in.
    public let certificateAuthorityPEM: String

    /// The folder of device folders.
    public var devicesDirectory: URL { configuration.devicesDirectory }

    private let configuration: APNsStandInConfiguration
    private let rules: APNsPushRules
    private let logger: Logger
    private let state: Mutex<State>
    private let server: APNsStandInServer

    private init(
        configuration: APNsStandInConfiguration, certificateAuthorityPEM: String, logger: Logger, server: APNsStandInServer
    ) {
        self.configuration = configuration
        self.rules = APNsPushRules(bundleIDs: configuration.bundleIDs)
        self.certificateAuthorityPEM = certificateAuthorityPEM
        self.logger = logger
        self.state = Mutex(State(tokens: APNsProviderTokens(keys: configuration.providerKeys)))
        self.server = server
    }

    /// Makes a fresh test certificate authority and starts listening.
    ///
    /// - Parameters:
    ///   - configuration: Where to listen, the provider keys, the bundle ids and the devices directory.
    ///   - logger: Where the stand-in says what it accepted and refused.
    /// - Returns: The running stand-in; call ``shutdown()`` when done.
    /// - Throws: ``APNsStandInError`` when the configuration has no key or no bundle id, the devices
    ///   directory cannot be made, the certificates cannot be made, or the address is taken.
    public static func start(_ configuration: APNsStandInConfiguration, logger: Logger) async throws(APNsStandInError) -> APNsStandIn {
        guard !configuration.providerKeys.isEmpty else { throw .incompleteConfiguration("no provider key") }
        guard !configuration.bundleIDs.isEmpty else { throw .incompleteConfiguration("no bundle id") }
        do {
            try FileManager.default.createDirectory(at: configuration.devicesDirectory, withIntermediateDirectories: true)
        } catch {
            throw .deviceDirectoryUnwritable(path: configuration.devicesDirectory.path, reason: "\(error)")
        }
        let certificates = try APNsStandInCertificates.make(now: configuration.clock.now)
        // The server needs the stand-in to answer and the stand-in needs the server's port: the
        // answering closure reaches the stand-in through this box, filled before the first request
        // can be read (a request before that gets 503, as APNs answers while starting or stopping).
        let box = Mutex<APNsStandIn?>(nil)
        let server = try await APNsStandInServer.start(
            host: configuration.host, port: configuration.port, certificates: certificates
        ) { request in
            guard let standIn = box.withLock({ $0 }) else {
                return APNsStandInAnswer(status: 503, apnsID: UUID().uuidString.lowercased(), reason: "ServiceUnavailable")
            }
            return standIn.answer(request)
        }
        let standIn = APNsStandIn(
            configuration: configuration, certificateAuthorityPEM: certificates.authorityPEM, logger: logger, server: server)
        box.withLock { $0 = standIn }
        logger.info("apns stand-in listening", metadata: ["host": "\(configuration.host)", "port": "\(server.port)"])
        return standIn
    }

    /// Stops listening and closes every connection.
    public func shutdown() async throws {
        await server.shutdown()
        logger.info("apns stand-in stopped")
    }

    // MARK: - What tests read and script

    /// The pushes accepted so far, in the order they were answered.
    public func deliveries() -> [APNsStandInDelivery] { state.withLock { $0.deliveries } }

    /// The requests refused so far, in the order they were answered.
    public func refusals() -> [APNsStandInRefusal] { state.withLock { $0.refusals } }

    /// Makes the next `count` requests for `token` (or, with `nil`, for any token) answer `status`
    /// with `reason` before any other check, as APNs does when it is overloaded or failing.
    ///
    /// ```swift
    /// apns.failNext(1, token: device.token, status: 429, reason: "TooManyRequests")
    /// apns.failNext(2, token: nil, status: 503, reason: "ServiceUnavailable")
    /// ```
    ///
    /// Scripts are used in the order they were made; a token's own script and a script for any
    /// token both count down on the requests they answer.
    ///
    /// - Parameters:
    ///   - count: How many requests to answer so.
    ///   - token: The device token (hex), or `nil` for every token.
    ///   - status: The HTTP status to answer, for example 429, 500 or 503.
    ///   - reason: The reason to put in the JSON body, for example `TooManyRequests`.
    public func failNext(_ count: Int, token: String?, status: Int, reason: String) {
        guard count > 0 else { return }
        state.withLock {
            $0.faults.append(Fault(token: token?.lowercased(), remaining: count, status: status, reason: reason))
        }
    }

    /// Drops every scripted fault not used yet: the following requests are checked as usual.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    // MARK: - Devices

    /// Makes a new device in ``devicesDirectory`` (see ``APNsStandInDevice/register(in:)``).
    ///
    /// - Throws: ``APNsStandInError/deviceDirectoryUnwritable(path:reason:)`` when its folder cannot be made.
    public func registerDevice() throws(APNsStandInError) -> APNsStandInDevice {
        try APNsStandInDevice.register(in: devicesDirectory)
    }

    /// Makes a new device in `devicesDirectory`: a random 32-byte token and its folder, as an iPhone
    /// gets its token from APNs (see ``APNsStandInDevice/register(in:)``).
    ///
    /// - Parameter devicesDirectory: The folder of device folders.
    /// - Throws: ``APNsStandInError/deviceDirectoryUnwritable(path:reason:)`` when its folder cannot be made.
    public static func registerDevice(in devicesDirectory: URL) throws(APNsStandInError) -> APNsStandInDevice {
        try APNsStandInDevice.register(in: devicesDirectory)
    }

    /// The device for `token` in ``devicesDirectory`` (whether or not its folder exists).
    public func device(token: String) -> APNsStandInDevice {
        APNsStandInDevice(token: token, in: devicesDirectory)
    }

    /// Marks `token` as no longer valid from now on the stand-in's clock: later pushes to it get
    /// 410 `Unregistered`.
    ///
    /// - Throws: ``APNsStandInError/unknownDevice(token:)`` when the token has no folder.
    public func markUnregistered(token: String) throws(APNsStandInError) {
        try device(token: token).markUnregistered(at: configuration.clock.now)
    }

    // MARK: - Answering

    private func answer(_ request: APNsStandInRequest) -> APNsStandInAnswer {
        let now = configuration.clock.now
        let token = request.deviceToken
        let apnsID = request.value("apns-id").flatMap { UUID(uuidString: $0) == nil ? nil : $0 } ?? UUID().uuidString.lowercased()

        if let fault = takeFault(for: token) {
            return refuse(APNsPushRules.Refusal(fault.status, fault.reason), token: token, apnsID: apnsID, now: now)
        }
        if let refusal = rules.checkAddress(request) { return refuse(refusal, token: token, apnsID: apnsID, now: now) }
        guard let token else { return refuse(APNsPushRules.Refusal(404, "BadPath"), token: nil, apnsID: apnsID, now: now) }
        if let failure = state.withLock({ $0.tokens.check(authorization: request.value("authorization"), now: now) }) {
            return refuse(APNsPushRules.Refusal(failure.status, failure.reason), token: token, apnsID: apnsID, now: now)
        }
        let delivery: APNsStandInDelivery
        switch rules.checkNotification(request, deviceToken: token, apnsID: apnsID, now: now) {
        case .failure(let refusal): return refuse(refusal, token: token, apnsID: apnsID, now: now)
        case .success(let accepted): delivery = accepted
        }

        let device = device(token: token)
        guard device.exists else { return refuse(APNsPushRules.Refusal(400, "BadDeviceToken"), token: token, apnsID: apnsID, now: now) }
        if let since = device.unregisteredSince() {
            return refuse(
                APNsPushRules.Refusal(410, "Unregistered"), token: token, apnsID: apnsID, now: now,
                timestamp: APNsStandInTime.milliseconds(since))
        }
        do {
            try device.deliver(delivery)
        } catch {
            logger.error("apns stand-in could not write a delivery", metadata: ["error": "\(error)"])
            return refuse(APNsPushRules.Refusal(500, "InternalServerError"), token: token, apnsID: apnsID, now: now)
        }
        state.withLock { $0.deliveries.append(delivery) }
        logger.debug(
            "apns stand-in delivered",
            metadata: ["apns_id": "\(apnsID)", "push_type": "\(delivery.pushType)", "topic": "\(delivery.topic)"])
        return APNsStandInAnswer(status: 200, apnsID: apnsID)
    }

    private func takeFault(for token: String?) -> Fault? {
        state.withLock { state in
            guard let index = state.faults.firstIndex(where: { $0.token == nil || $0.token == token }) else { return nil }
            let fault = state.faults[index]
            state.faults[index].remaining -= 1
            if state.faults[index].remaining == 0 { state.faults.remove(at: index) }
            return fault
        }
    }

    private func refuse(
        _ refusal: APNsPushRules.Refusal, token: String?, apnsID: String, now: Date, timestamp: Int64? = nil
    ) -> APNsStandInAnswer {
        state.withLock {
            $0.refusals.append(
                APNsStandInRefusal(status: refusal.status, reason: refusal.reason, deviceToken: token, apnsID: apnsID, refusedAt: now))
        }
        logger.debug("apns stand-in refused", metadata: ["status": "\(refusal.status)", "reason": "\(refusal.reason)"])
        return APNsStandInAnswer(status: refusal.status, apnsID: apnsID, reason: refusal.reason, timestamp: timestamp)
    }
}
