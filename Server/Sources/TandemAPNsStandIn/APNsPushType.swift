/// The `apns-push-type` values APNs knows, from Apple's "Sending notification requests to APNs"
/// (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns)
/// and, for `widgets`, "Updating widgets with WidgetKit push notifications"
/// (https://developer.apple.com/documentation/widgetkit/updating-widgets-with-widgetkit-push-notifications).
enum APNsPushType: String, CaseIterable, Sendable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets

    /// The largest payload APNs takes for this type: 5 KB for VoIP, 4 KB for the others.
    var maximumPayloadBytes: Int { self == .voip ? 5120 : 4096 }
}
