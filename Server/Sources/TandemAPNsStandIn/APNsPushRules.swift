import Foundation
import TandemProtocol

/// The checks APNs makes on a request's address, headers and payload, with the status and reason
/// it answers for each. Sources:
///
/// - "Sending notification requests to APNs" (headers, their values and defaults, payload sizes):
///   https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
/// - "Handling notification responses from APNs" (statuses and reason strings):
///   https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
/// - "Pushing background updates to your App" (`background` pushes: `content-available` 1, no alert,
///   sound or badge, `apns-priority` 5):
///   https://developer.apple.com/documentation/usernotifications/pushing-background-updates-to-your-app
/// - "Updating widgets with WidgetKit push notifications" (`widgets` pushes: topic
///   `<bundle id>.push-type.widgets`, payload `{"aps":{"content-changed":true}}`):
///   https://developer.apple.com/documentation/widgetkit/updating-widgets-with-widgetkit-push-notifications
///
/// Where Apple names no reason the stand-in picks the nearest one of the table: a body that is not
/// a JSON object with an `aps` dictionary is `PayloadEmpty` (there is no notification in it), a
/// payload that does not match its push type is `InvalidPushType`, and a topic whose
/// `.push-type.widgets` suffix does not match the push type is `DeviceTokenNotForTopic` (WidgetKit
/// tokens belong to the widgets topic).
struct APNsPushRules: Sendable {
    /// A refusal: the status and reason APNs answers.
    struct Refusal: Error, Equatable {
        let status: Int
        let reason: String

        init(_ status: Int, _ reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    /// The suffix WidgetKit push topics add to the app's bundle id.
    static let widgetsTopicSuffix = ".push-type.widgets"

    /// The headers APNs refuses to see twice (400 `DuplicateHeaders`).
    private static let singleHeaders = [
        "authorization", "apns-id", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id",
    ]

    let bundleIDs: Set<String>

    // MARK: - Before the provider token

    /// The method, the path and its device token, repeated headers and the `apns-id`: what APNs
    /// refuses before it looks at the provider token.
    func checkAddress(_ request: APNsStandInRequest) -> Refusal? {
        guard request.method == "POST" else { return Refusal(405, "MethodNotAllowed") }
        let prefix = "/3/device/"
        guard request.path.hasPrefix(prefix) else { return Refusal(404, "BadPath") }
        let token = request.path.dropFirst(prefix.count)
        guard !token.isEmpty else { return Refusal(400, "MissingDeviceToken") }
        guard token.utf8.count == 64, token.utf8.allSatisfy(Self.isHexDigit) else { return Refusal(400, "BadDeviceToken") }
        if Self.singleHeaders.contains(where: { request.values($0).count > 1 }) { return Refusal(400, "DuplicateHeaders") }
        if let id = request.value("apns-id"), UUID(uuidString: id) == nil { return Refusal(400, "BadMessageId") }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    // MARK: - After the provider token

    /// The topic, push type, priority, expiration, collapse id and payload; the delivery they
    /// describe when APNs would accept them.
    func checkNotification(
        _ request: APNsStandInRequest, deviceToken: String, apnsID: String, now: Date
    ) -> Result<APNsStandInDelivery, Refusal> {
        guard let topic = request.value("apns-topic"), !topic.isEmpty else { return .failure(Refusal(400, "MissingTopic")) }
        let isWidgetsTopic = topic.hasSuffix(Self.widgetsTopicSuffix)
        let bundleID = isWidgetsTopic ? String(topic.dropLast(Self.widgetsTopicSuffix.count)) : topic
        guard bundleIDs.contains(bundleID) else { return .failure(Refusal(400, "BadTopic")) }

        // Optional on iOS; APNs then takes the push for an alert.
        let pushTypeName = request.value("apns-push-type") ?? APNsPushType.alert.rawValue
        guard let pushType = APNsPushType(rawValue: pushTypeName) else { return .failure(Refusal(400, "InvalidPushType")) }
        guard (pushType == .widgets) == isWidgetsTopic else { return .failure(Refusal(400, "DeviceTokenNotForTopic")) }

        // "If you omit this header, APNs sets the notification priority to 10."
        var priority = 10
        if let text = request.value("apns-priority") {
            guard let value = Int(text), [1, 5, 10].contains(value) else { return .failure(Refusal(400, "BadPriority")) }
            priority = value
        }
        var expiration: Int?
        if let text = request.value("apns-expiration") {
            guard let value = Int(text), value >= 0 else { return .failure(Refusal(400, "BadExpirationDate")) }
            expiration = value
        }
        let collapseID = request.value("apns-collapse-id")
        if let collapseID, collapseID.utf8.count > 64 { return .failure(Refusal(400, "BadCollapseId")) }

        guard !request.body.isEmpty else { return .failure(Refusal(400, "PayloadEmpty")) }
        guard request.body.count <= pushType.maximumPayloadBytes else { return .failure(Refusal(413, "PayloadTooLarge")) }
        guard case .object(let payload)? = try? JSONDecoder().decode(JSONValue.self, from: request.body),
            case .object(let aps)? = payload["aps"]
        else { return .failure(Refusal(400, "PayloadEmpty")) }
        if let refusal = Self.checkPayload(aps, pushType: pushType, priority: priority) { return .failure(refusal) }

        return .success(
            APNsStandInDelivery(
                apnsID: apnsID, deviceToken: deviceToken, pushType: pushType.rawValue, topic: topic, priority: priority,
                collapseID: collapseID, expiration: expiration, payload: payload, receivedAt: now))
    }

    /// The `aps` dictionary against the push type: a WidgetKit push says `content-changed: true`; a
    /// background push says `content-available: 1`, shows nothing, and goes at priority 5.
    private static func checkPayload(_ aps: [String: JSONValue], pushType: APNsPushType, priority: Int) -> Refusal? {
        switch pushType {
        case .widgets:
            guard aps["content-changed"] == .bool(true) else { return Refusal(400, "InvalidPushType") }
        case .background:
            guard aps["content-available"] == .number(1) else { return Refusal(400, "InvalidPushType") }
            guard aps["alert"] == nil, aps["sound"] == nil, aps["badge"] == nil else { return Refusal(400, "InvalidPushType") }
            guard priority == 5 else { return Refusal(400, "BadPriority") }
        default:
            break
        }
        return nil
    }
}
