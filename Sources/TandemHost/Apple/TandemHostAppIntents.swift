#if canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import TandemWidgets

/// The App Intents this library declares for the app (``ApprovalShortcuts``, ``ApproveItemIntent``,
/// ``ShowApprovalsIntent``, ``ApprovalEntity``), with the widgets' (`TandemWidgetsAppIntents`):
/// App Intents outside the app's own targets are found only through a chain of
/// `AppIntentsPackage` types, so the app names this one in a package of its own:
///
/// ```swift
/// struct SalesAppIntents: AppIntentsPackage {
///     static var includedPackages: [any AppIntentsPackage.Type] { [TandemHostAppIntents.self] }
/// }
/// ```
@available(iOS 17.0, *)
public struct TandemHostAppIntents: AppIntentsPackage {
    /// The widgets' intents, which the app decodes too (a widget's configuration, an
    /// `ItemActionIntent` continued in the app on iOS 26).
    public static var includedPackages: [any AppIntentsPackage.Type] { [TandemWidgetsAppIntents.self] }
}
#endif
