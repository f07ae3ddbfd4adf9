import Foundation

/// A request the stand-in refused, with the status and reason APNs would have answered.
///
/// Reasons are the strings of Apple's table in "Handling notification responses from APNs":
/// https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
public struct APNsStandInRefusal: Sendable, Equatable {
    /// The HTTP status (400, 403, 404, 405, 410, 413, 429, 500 or 503).
    public let status: Int
    /// The `reason` of the JSON body, for example `BadDeviceToken` or `ExpiredProviderToken`.
    public let reason: String
    /// The device token of the request's path (lower-case hex), when it had one.
    public let deviceToken: String?
    /// The `apns-id` the answer carried.
    public let apnsID: String
    /// When the stand-in answered, on its clock.
    public let refusedAt: Date

    /// A refusal record (the stand-in makes these; tests compare them).
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - reason: The reason string.
    ///   - deviceToken: The path's device token, if any.
    ///   - apnsID: The answer's `apns-id`.
    ///   - refusedAt: When it was refused.
    public init(status: Int, reason: String, deviceToken: String?, apnsID: String, refusedAt: Date) {
        self.status = status
        self.reason = reason
        self.deviceToken = deviceToken
        self.apnsID = apnsID
        self.refusedAt = refusedAt
    }
}
