// iOS 26 SDK or later only: WidgetPushHandler came with iOS 26. WidgetKit's module version is 664
// in the iOS 26.2 SDK and 537 in 18.6, so `_version: 600` compiles this file out of older SDKs.
#if canImport(WidgetKit, _version: 600) && os(iOS)
import Foundation
import TandemPlatform
import TandemSharedContainer
import WidgetKit

/// A WidgetKit push handler that leaves the widgets' push token sealed in the shared container,
/// where the host finds it and registers it with the server (the widgets' own grant is
/// read-only and cannot). The host's next run registers it: ``TandemHost``'s
/// `PushRegistrationStep`, which then leaves a sealed `WidgetPushStatus` in the container; from
/// then on the widgets reload on pushes, and on their own only every
/// ``DataWidgetSchedule/pushSafetyNet`` (6 hours) while pushes keep coming.
///
/// Adopt it with a type that says where the container and the extensions' secret storage are
/// (WidgetKit makes the handler with `init()`), and name that type in the configuration of an iOS
/// 26 widget kind. `.pushHandler(_:)` exists from iOS 26 only, and neither a widget's
/// configuration nor its bundle can choose between two by `#available` (a bundle's
/// `if #available` has no `else`), so the kind updated by push sits beside the iOS 17 one: on
/// iOS 26 the gallery offers both.
///
/// ```swift
/// @available(iOS 26.0, *)
/// struct SalesWidgetPushHandler: SharedContainerWidgetPushHandler {
///     static func destination() throws -> (container: SharedContainer, sharedSecrets: any SecretStorage) {
///         (try AppGroupContainer.sharedContainer(groupIdentifier: "group.com.example.sales"),
///          KeychainSecretStorage(service: "com.example.sales", accessGroup: "TEAMID.com.example.shared"))
///     }
/// }
///
/// @available(iOS 26.0, *)
/// struct PushedOrdersWidget: Widget {
///     var body: some WidgetConfiguration {
///         AppIntentConfiguration(kind: "orders-live", intent: DataWidgetIntent.self, provider: DataWidgetTimelineProvider(provider: Widgets.provider)) { entry in
///             WidgetContentView(content: entry.content)
///         }
///         .pushHandler(SalesWidgetPushHandler.self)
///     }
/// }
///
/// struct SalesPushedWidgets: WidgetBundle {
///     var body: some Widget {
///         OrdersWidget()
///         if #available(iOS 26.0, *) { PushedOrdersWidget() }
///     }
/// }
/// ```
///
/// A widget updated by push also sets ``DataWidgetSchedule/revalidation`` in direct mode:
/// WidgetKit reloads its timeline on a push without saying why.
@available(iOS 26.0, *)
public protocol SharedContainerWidgetPushHandler: WidgetPushHandler {
    /// The shared container and the extensions' secret storage (which holds the sealing key).
    static func destination() throws -> (container: SharedContainer, sharedSecrets: any SecretStorage)
}

@available(iOS 26.0, *)
extension SharedContainerWidgetPushHandler {
    /// Seals the new token into the shared container; before the host armed the widgets (no
    /// sealing key yet) it keeps it in the shared secret storage instead
    /// (``TandemSharedContainer/PendingWidgetPushToken``), since WidgetKit hands a token over
    /// again only when it changes.
    public func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {
        guard let (container, secrets) = try? Self.destination() else { return }
        guard let sealingKey = try? SharedSealingKey.load(from: secrets) else {
            try? PendingWidgetPushToken.save(pushInfo.token, in: secrets)
            return
        }
        try? container.widgetPushToken.write(pushInfo.token, sealingKey: sealingKey)
        PendingWidgetPushToken.remove(from: secrets)
    }
}
#endif
