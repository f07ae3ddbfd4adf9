import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer

/// Registers the device's push tokens with the server and withdraws them, with the host's own
/// grant: `PUT` and `DELETE /v1/push/devices/{deviceId}`.
///
/// The host registers two tokens: its own APNs device token (from the app delegate's
/// remote-notification registration), for background pushes that wake it, and the widget
/// extension's WidgetKit push token, which the extension leaves sealed in the shared container
/// (``TandemSharedContainer/WidgetPushTokenRecord``) because its read-only grant cannot register
/// anything.
///
/// ```swift
/// try await PushRegistrar.register(
///     deviceID: installationID, environment: .production, hostToken: deviceToken,
///     widgetsToken: try container.widgetPushToken.read(sealingKey: sealingKey),
///     widgets: WidgetPushSubscriptions.read(from: container, delivery: .direct),
///     with: client, tokens: coordinator)
/// ```
public enum PushRegistrar {
    /// Makes `hostToken` and `widgetsToken` the device's registration for this app and user (a
    /// `nil` token is withdrawn; at least one must be given).
    ///
    /// - Parameters:
    ///   - deviceID: The app's own stable identifier of its installation (1–100 letters, digits,
    ///     `.`, `_` or `-`, such as a UUID).
    ///   - environment: The tokens' APNs environment (`sandbox` for development builds).
    ///   - hostToken: The app's APNs device token, as the system handed it over.
    ///   - widgetsToken: The widget extension's push token.
    ///   - widgets: What the placed widgets show (``WidgetPushSubscriptions``): the server pushes
    ///     only changes to those sets; none, no change.
    ///   - timeZone: The device's time zone (IANA), where the server's daily push budget begins.
    ///   - client: The host's client.
    ///   - provider: The host's tokens (the user's grant: `data.write`, audience `tandem`).
    /// - Throws: ``TandemAuth/AuthError/invalidConfiguration(_:)`` without any token or with one
    ///   of an impossible length; `AuthError` for a refused request.
    public static func register(
        deviceID: String, environment: PushEnvironment, hostToken: Data?, widgetsToken: Data?, widgets: [PushWidgetSubscription] = [],
        timeZone: String? = TimeZone.current.identifier, with client: AppClient, tokens provider: any AccessTokenProvider
    ) async throws(AuthError) {
        guard hostToken != nil || widgetsToken != nil else { throw .invalidConfiguration("no push token to register") }
        for token in [hostToken, widgetsToken].compactMap({ $0 }) where !PushTokenRules.isAcceptable(token) {
            throw .invalidConfiguration("a push token of \(token.count) bytes")
        }
        let body: Data
        do {
            body = try JSONEncoder().encode(PushDeviceTokensDocument(
                environment: environment, hostToken: hostToken.map(Hex.encode), widgetsToken: widgetsToken.map(Hex.encode), widgets: widgets,
                timeZone: timeZone))
        } catch {
            throw .invalidConfiguration("cannot encode the push tokens: \(error)")
        }
        let request = HTTPRequest(
            method: .put, url: try client.url(APIPath.pushDevice(id: deviceID)), headers: ["Content-Type": "application/json"], body: body)
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }

    /// Withdraws every push token of the device (the user signs out there).
    ///
    /// - Throws: `AuthError` for a refused request.
    public static func withdraw(deviceID: String, with client: AppClient, tokens provider: any AccessTokenProvider) async throws(AuthError) {
        let request = HTTPRequest(method: .delete, url: try client.url(APIPath.pushDevice(id: deviceID)))
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }
}
