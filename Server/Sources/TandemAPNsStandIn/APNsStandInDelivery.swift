import Foundation
import TandemProtocol

/// A push the stand-in accepted (answered 200) and wrote to its device's inbox, as
/// `<devicesDirectory>/<token>/inbox/<apns-id>.json`.
///
/// The file holds this value in JSON with snake-case keys: `apns_id`, `device_token`, `push_type`,
/// `topic`, `priority`, `collapse_id` and `expiration` (`null` when the request had none),
/// `payload` (the request's JSON object) and `received_at` (milliseconds since 1970).
public struct APNsStandInDelivery: Sendable, Equatable, Codable {
    /// The notification's id: the request's `apns-id`, or the UUID the stand-in made for it.
    public let apnsID: String
    /// The device token the push was sent to (lower-case hex).
    public let deviceToken: String
    /// The `apns-push-type` (`alert` when the request named none, as APNs assumes on iOS).
    public let pushType: String
    /// The `apns-topic`.
    public let topic: String
    /// The `apns-priority` (10 when the request named none, as APNs assumes).
    public let priority: Int
    /// The `apns-collapse-id`, if any.
    public let collapseID: String?
    /// The `apns-expiration` (seconds since 1970; `0` means "deliver once or never"), if any.
    public let expiration: Int?
    /// The notification's JSON payload.
    public let payload: [String: JSONValue]
    /// When the stand-in accepted it, on its clock.
    public let receivedAt: Date

    /// A delivery record (the stand-in makes these; tests compare them).
    ///
    /// - Parameters:
    ///   - apnsID: The notification id.
    ///   - deviceToken: The device token, lower-case hex.
    ///   - pushType: The push type.
    ///   - topic: The topic.
    ///   - priority: The priority.
    ///   - collapseID: The collapse id, if any.
    ///   - expiration: The expiration, if any.
    ///   - payload: The JSON payload.
    ///   - receivedAt: When it was accepted.
    public init(
        apnsID: String, deviceToken: String, pushType: String, topic: String, priority: Int, collapseID: String?,
        expiration: Int?, payload: [String: JSONValue], receivedAt: Date
    ) {
        self.apnsID = apnsID
        self.deviceToken = deviceToken
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.payload = payload
        self.receivedAt = receivedAt
    }

    enum CodingKeys: String, CodingKey {
        case apnsID = "apns_id", deviceToken = "device_token", pushType = "push_type", topic, priority
        case collapseID = "collapse_id", expiration, payload, receivedAt = "received_at"
    }

    /// Reads an inbox file's JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apnsID = try container.decode(String.self, forKey: .apnsID)
        deviceToken = try container.decode(String.self, forKey: .deviceToken)
        pushType = try container.decode(String.self, forKey: .pushType)
        topic = try container.decode(String.self, forKey: .topic)
        priority = try container.decode(Int.self, forKey: .priority)
        collapseID = try container.decodeIfPresent(String.self, forKey: .collapseID)
        expiration = try container.decodeIfPresent(Int.self, forKey: .expiration)
        payload = try container.decode([String: JSONValue].self, forKey: .payload)
        let milliseconds = try container.decode(Int64.self, forKey: .receivedAt)
        receivedAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Writes the inbox file's JSON, with explicit `null`s for a missing collapse id or expiration.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apnsID, forKey: .apnsID)
        try container.encode(deviceToken, forKey: .deviceToken)
        try container.encode(pushType, forKey: .pushType)
        try container.encode(topic, forKey: .topic)
        try container.encode(priority, forKey: .priority)
        try container.encode(collapseID, forKey: .collapseID)
        try container.encode(expiration, forKey: .expiration)
        try container.encode(payload, forKey: .payload)
        try container.encode(APNsStandInTime.milliseconds(receivedAt), forKey: .receivedAt)
    }
}
