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
public struct PushDeviceTokensDocument: Codable, Sendable, Equatable {
    /// The tokens' APNs environment.
    public var environment: PushEnvironment
    /// The host app's device token, in hex.
    public var hostToken: String?
    /// The widget extension's push token, in hex.
    public var widgetsToken: String?

    /// A document of tokens already in hex.
    public init(environment: PushEnvironment, hostToken: String?, widgetsToken: String?) {
        self.environment = environment
        self.hostToken = hostToken
        self.widgetsToken = widgetsToken
    }

    enum CodingKeys: String, CodingKey {
        case environment
        case hostToken = "host_token"
        case widgetsToken = "widgets_token"
    }
}
