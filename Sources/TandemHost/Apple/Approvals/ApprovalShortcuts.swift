#if canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import TandemPlatform

/// The App Shortcuts of approvals, in Siri, Spotlight and the Shortcuts app: "Show my approvals"
/// (``ShowApprovalsIntent``) and "Approve ⟨item⟩" (``ApproveItemIntent``), which always runs in
/// the app with the user confirming.
///
/// The system makes the intents and the entity query with `init()`, so the app installs what
/// they need once, at launch (``ApprovalShortcutsConfiguration``), and tells the system when its
/// list of approvals changed, so Siri learns the items' names:
///
/// ```swift
/// ApprovalShortcuts.install(configuration)
/// ApprovalShortcuts.updateAppShortcutParameters()       // after each refresh of the approvals
/// ```
///
/// An app has one `AppShortcutsProvider`: an app with shortcuts of its own lists these two
/// `AppShortcut`s in its provider instead. Xcode reads App Intents metadata from a package since
/// Xcode 26; the app names ``TandemHostAppIntents`` in its `AppIntentsPackage`.
@available(iOS 17.0, *)
public struct ApprovalShortcuts: AppShortcutsProvider {
    /// "Show my approvals" and "Approve ⟨item⟩".
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: ShowApprovalsIntent(),
            phrases: ["Show my approvals in \(.applicationName)", "Show \(.applicationName) approvals"],
            shortTitle: "My approvals", systemImageName: "checkmark.seal")
        AppShortcut(
            intent: ApproveItemIntent(),
            phrases: ["Approve \(\.$approval) in \(.applicationName)", "Approve in \(.applicationName)"],
            shortTitle: "Approve", systemImageName: "checkmark.circle")
    }

    // MARK: - Installation

    private static let installed = Locked<ApprovalShortcutsConfiguration?>(nil)

    /// Serves the shortcuts with `configuration` from now on; a second call replaces the first.
    /// Call it at launch, before the system can run an intent.
    public static func install(_ configuration: ApprovalShortcutsConfiguration) {
        installed.withLock { $0 = configuration }
    }

    /// The installed configuration.
    ///
    /// - Throws: ``ApprovalShortcutsError/notInstalled``.
    static func configuration() throws(ApprovalShortcutsError) -> ApprovalShortcutsConfiguration {
        guard let configuration = installed.withLock({ $0 }) else { throw .notInstalled }
        return configuration
    }
}
#endif
