/// What APNs answered to one notification, and what the provider does about it.
///
/// Apple's "Handling notification responses from APNs"
/// (https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns)
/// lists the statuses and reasons.
struct APNsResponse: Sendable, Equatable {
    /// The HTTP status.
    var status: Int
    /// The `reason` of a refusal.
    var reason: String?
    /// The `apns-id` APNs answered with.
    var apnsID: String?
    /// For `410 Unregistered`: when APNs learned the token was no longer valid (milliseconds).
    var unregisteredAt: Int64?

    /// What the provider does next.
    enum Disposition: Sendable, Equatable {
        /// Delivered to APNs: done.
        case sent
        /// The token is no longer valid: remove it, and the push.
        case tokenGone
        /// The provider token expired: make a new one and send again.
        case renewProviderToken
        /// APNs is busy or failing, or the provider's credentials are refused: try later.
        case retryLater
        /// The request itself is wrong; sending it again would fail again: drop it.
        case refused
    }

    /// What the provider does about this answer.
    var disposition: Disposition {
        switch (status, reason) {
        case (200, _): .sent
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): .tokenGone
        case (403, "ExpiredProviderToken"): .renewProviderToken
        case (403, _), (429, _), (500...599, _): .retryLater
        default: .refused
        }
    }
}
