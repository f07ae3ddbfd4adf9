import TandemPlatform
import TandemProtocol

/// One push token a device registered: where the server's pushes for an app and a user go.
struct PushRegistration: Sendable, Hashable {
    /// What a token receives.
    enum Kind: String, Sendable, CaseIterable, Encodable {
        /// The host app's APNs device token: background pushes (`content-available`) that wake it.
        case host
        /// The widget extension's push token (WidgetKit push updates, iOS 26): pushes of type
        /// `widgets` that reload the timelines.
        case widgets
    }

    /// The app.
    var clientID: String
    /// The signed-in user.
    var userID: String
    /// The device (the app's own stable identifier for its installation).
    var deviceID: String
    /// What the token receives.
    var kind: Kind
    /// Its APNs environment.
    var environment: PushEnvironment
    /// The token, lowercase hex, as APNs takes it in the request path.
    var token: String
    /// The grant it was registered with: the registration ends with it.
    var familyID: String
    /// When it was last registered.
    var updatedAt: Timestamp
    /// The device's time zone (IANA), where its push budget's day begins; `nil` for UTC.
    var timeZone: String? = nil
}
