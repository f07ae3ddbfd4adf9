#if canImport(UIKit) && os(iOS)
import Foundation
import UIKit

/// The host app's side of APNs: its device token, kept for ``PushRegistrationStep``, and the
/// background flow run for a background push (`content-available`), which the server sends when
/// the data the widgets show has changed.
///
/// In the app delegate:
///
/// ```swift
/// func application(
///     _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
/// ) -> Bool {
///     RemotePushes.register()
///     return true
/// }
/// func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
///     RemotePushes.didRegister(deviceToken: deviceToken)
/// }
/// func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
///     -> UIBackgroundFetchResult {
///     guard RemotePushes.isContentChange(userInfo) else { return .noData }
///     return await RemotePushes.runBackgroundFlow(flow, in: context)
/// }
/// ```
///
/// with `PushRegistrationStep(environment: ProvisioningProfile.pushEnvironment(profile: …), hostToken: { RemotePushes.deviceToken() })`
/// in the app's flow (``ProvisioningProfile``: the sandbox for a development build, production for
/// the App Store's). The app needs the Push Notifications capability and the `remote-notification`
/// background mode (`UIBackgroundModes`). Background pushes show nothing, so they need no
/// permission prompt; iOS may still hold them back (Low Power Mode, a force-quit app), and the
/// widgets' own pushes and timeline remain.
@available(iOSApplicationExtension, unavailable)
public enum RemotePushes {
    /// Where the device token is kept: the app's own defaults (it is an address, not a secret).
    static let tokenKey = "tandem.push.device-token"

    /// How long a background push's run may take: iOS allows about 30 seconds.
    public static let allowedDuration = Duration.seconds(25)

    /// Asks iOS for the app's device token; call at each launch (the token may change).
    @MainActor
    public static func register() {
        UIApplication.shared.registerForRemoteNotifications()
    }

    /// Keeps the token iOS handed over, for the flow's next registration.
    public static func didRegister(deviceToken: Data) {
        UserDefaults.standard.set(deviceToken, forKey: tokenKey)
    }

    /// The last token iOS handed over, if any.
    public static func deviceToken() -> Data? {
        UserDefaults.standard.data(forKey: tokenKey)
    }

    /// Whether `userInfo` is a background push (`aps.content-available` 1).
    public static func isContentChange(_ userInfo: [AnyHashable: Any]) -> Bool {
        guard let aps = userInfo["aps"] as? [String: Any] else { return false }
        return (aps["content-available"] as? NSNumber)?.intValue == 1
    }

    /// Runs `flow`'s background phase after a background push: the rows of configured widgets
    /// fetched before now are fetched again (``FlowContext/contentChangedAt``), pending requests
    /// fulfilled, and the widgets reloaded by the flow's ``ExtensionCommunicationStep`` (give it a
    /// `WidgetCenterReloader`). It is cancelled at its next safe point after ``allowedDuration``.
    ///
    /// - Returns: What to tell iOS: `.newData` when the flow ran, `.failed` when it failed or
    ///   ran out of time.
    public static func runBackgroundFlow(_ flow: Flow, in context: FlowContext) async -> UIBackgroundFetchResult {
        context.contentChangedAt = context.clock.now
        let finished = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { (try? await flow.run(.background, in: context)) != nil }
            group.addTask {
                try? await context.clock.sleep(for: allowedDuration)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return finished == true ? .newData : .failed
    }
}
#endif
