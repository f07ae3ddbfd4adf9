/// One notification as APNs takes it: the request's headers and payload for a push of a kind.
///
/// The format follows Apple's "Sending notification requests to APNs"
/// (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns):
/// `POST /3/device/<token>` over HTTP/2 with `apns-topic`, `apns-push-type`, `apns-priority`,
/// `apns-expiration`, `apns-collapse-id` and `apns-id`.
struct APNsNotification: Sendable, Equatable {
    /// `apns-topic`.
    var topic: String
    /// `apns-push-type`.
    var pushType: String
    /// `apns-priority`.
    var priority: Int
    /// `apns-expiration`: seconds since 1970 after which APNs stops trying to deliver it.
    var expiration: Int64
    /// `apns-collapse-id`.
    var collapseID: String
    /// `apns-id`.
    var id: String
    /// The JSON payload.
    var payload: String

    /// The notification telling the device that an entity set changed: for the widgets' token a
    /// WidgetKit push update, for the host's a background push.
    ///
    /// - Widgets (Apple's "Updating widgets with WidgetKit push notifications",
    ///   https://developer.apple.com/documentation/widgetkit/updating-widgets-with-widgetkit-push-notifications):
    ///   topic `<bundle id>.push-type.widgets`, push type `widgets`, payload
    ///   `{"aps":{"content-changed":true}}`; priority 10 (the example's default: the reload counts
    ///   against the widget's budget either way, and the outbox already spaces them).
    /// - Host (Apple's "Pushing background updates to your App",
    ///   https://developer.apple.com/documentation/usernotifications/pushing-background-updates-to-your-app):
    ///   topic the bundle id, push type `background`, priority 5 (10 is an error for background
    ///   pushes), payload `{"aps":{"content-available":1}}` with no alert, sound or badge.
    ///
    /// - Parameters:
    ///   - entry: The push owed.
    ///   - bundleID: The app's bundle id.
    ///   - expiresAt: When the notification stops being worth delivering (seconds since 1970).
    static func change(for entry: PushOutboxEntry, bundleID: String, expiresAt: Int64) -> APNsNotification {
        switch entry.kind {
        case .widgets:
            APNsNotification(
                topic: bundleID + ".push-type.widgets", pushType: "widgets", priority: 10, expiration: expiresAt,
                collapseID: entry.collapseID, id: entry.apnsID, payload: #"{"aps":{"content-changed":true}}"#)
        case .host:
            APNsNotification(
                topic: bundleID, pushType: "background", priority: 5, expiration: expiresAt,
                collapseID: entry.collapseID, id: entry.apnsID, payload: #"{"aps":{"content-available":1}}"#)
        }
    }
}
