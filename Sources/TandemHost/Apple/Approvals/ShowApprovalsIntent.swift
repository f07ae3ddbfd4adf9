// The iOS 26 part (`supportedModes`) sits behind `canImport(AppIntents, _version: 250)`: see
// ItemActionIntent.swift (TandemWidgets) for the module versions.
#if canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents

/// "Show my approvals": opens the app at its pending approvals (the `showApprovals` closure of
/// ``ApprovalShortcutsConfiguration``). It decides nothing, so it needs no step-up.
@available(iOS 17.0, *)
public struct ShowApprovalsIntent: AppIntent {
    /// "Show my approvals".
    public static var title: LocalizedStringResource { "Show my approvals" }
    /// What it does.
    public static var description: IntentDescription? { IntentDescription("Opens the approvals waiting for your decision.") }
    /// Runs in the app, in the foreground (iOS 17 to 18; iOS 26 reads ``supportedModes``).
    public static var openAppWhenRun: Bool { true }

    #if canImport(AppIntents, _version: 250)
    /// In the app, in the foreground, at once (iOS 26).
    @available(iOS 26.0, *)
    public static var supportedModes: IntentModes { .foreground(.immediate) }
    #endif

    /// The intent, as the system creates it.
    public init() {}

    /// Shows the approvals.
    ///
    /// - Throws: ``ApprovalShortcutsError/notInstalled``.
    public func perform() async throws -> some IntentResult {
        let configuration = try ApprovalShortcuts.configuration()
        await configuration.showApprovals()
        return .result()
    }
}
#endif
