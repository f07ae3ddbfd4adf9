#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of `PUT /v1/push/devices/{deviceId}` (``APIPath/pushDevice(id:)``): where the
/// server's pushes reach a device. `host_token` is the app's APNs device token (background pushes
/// that wake the host), `widgets_token` the widget extension's WidgetKit push token; either or
/// both, in hex (``PushTokenRules``). The document is the device's whole registration for its
/// app and user: a token left out is withdrawn.
///
/// `widgets` names what the device's placed widgets show (``PushWidgetSubscription``): the
/// server pushes the device only for changes to those sets (none, when it is absent or empty).
/// `time_zone` (an IANA name such as `Europe/Berlin`; UTC when absent) says when the device's
/// day begins, for the server's daily push budget.
public struct PushDeviceTokensDocument: Codable, Sendable, Equatable {
    /// The tokens' APNs environment.
    public var environment: PushEnvironment
    /// The host app's device token, in hex.
    public var hostToken: String?
    /// The widget extension's push token, in hex.
    public var widgetsToken: String?
    /// What the device's placed widgets show; `nil` or empty: no widget shows anything, so no
    /// change is pushed.
    public var widgets: [PushWidgetSubscription]?
    /// The device's time zone (IANA), for the push budget's day; `nil` for UTC.
    public var timeZone: String?

    /// A document of tokens already in hex, with what the widgets show and the device's time zone.
    public init(
        environment: PushEnvironment, hostToken: String?, widgetsToken: String?, widgets: [PushWidgetSubscription]? = nil,
        timeZone: String? = nil
    ) {
        self.environment = environment
        self.hostToken = hostToken
        self.widgetsToken = widgetsToken
        self.widgets = widgets
        self.timeZone = timeZone
    }

    enum CodingKeys: String, CodingKey {
        case environment
        case hostToken = "host_token"
        case widgetsToken = "widgets_token"
        case widgets
        case timeZone = "time_zone"
    }
}
