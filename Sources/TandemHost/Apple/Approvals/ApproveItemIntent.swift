// The iOS 26 part (`supportedModes`) sits behind `canImport(AppIntents, _version: 250)`: see
// ItemActionIntent.swift (TandemWidgets) for the module versions.
#if canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import Foundation
import TandemSharedContainer

/// "Approve ⟨item⟩" from Siri, Spotlight or the Shortcuts app: always in the app, always with
/// the user present.
///
/// It opens the app (`supportedModes` `.foreground(.immediate)` on iOS 26, `openAppWhenRun`
/// before), opens the user's session (the vault unlocked, by the restoring flow if it was
/// locked), then executes the approval through ``ActionExecution`` with the step-up key, whose
/// signature asks for Face ID or the passcode whatever the amount
/// (``ApprovalShortcutsConfiguration``). Nothing is approved from a locked phone (its
/// ``authenticationPolicy`` is `.requiresAuthentication`) or in the background, and the widgets
/// show the result as they show their own taps'.
@available(iOS 17.0, *)
public struct ApproveItemIntent: AppIntent {
    /// "Approve".
    public static var title: LocalizedStringResource { "Approve" }
    /// What it does.
    public static var description: IntentDescription? {
        IntentDescription("Approves a pending item after you confirm with Face ID or your passcode.")
    }
    /// Runs in the app, in the foreground (iOS 17 to 18; iOS 26 reads ``supportedModes``).
    public static var openAppWhenRun: Bool { true }
    /// Only on an unlocked device: Siri on a locked phone asks the user to unlock first.
    public static var authenticationPolicy: IntentAuthenticationPolicy { .requiresAuthentication }

    #if canImport(AppIntents, _version: 250)
    /// In the app, in the foreground, at once (iOS 26).
    @available(iOS 26.0, *)
    public static var supportedModes: IntentModes { .foreground(.immediate) }
    #endif

    /// The approval to decide.
    @Parameter(title: "Approval")
    public var approval: ApprovalEntity

    /// An empty intent, as the system creates it.
    public init() {}

    /// An intent approving `approval`, for a donation or a button in the app.
    public init(approval: ApprovalEntity) {
        self.approval = approval
    }

    /// "Approve PR-1003".
    public static var parameterSummary: some ParameterSummary {
        Summary("Approve \(\.$approval)")
    }

    /// Approves ``approval`` and says how it ended.
    ///
    /// - Throws: ``ApprovalShortcutsError``.
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let outcome = try await ApprovalShortcuts.configuration().approve(approval)
        return .result(dialog: "\(Self.sentence(outcome, approval: approval))")
    }

    /// What Siri says of `outcome`.
    static func sentence(_ outcome: ActionOutcome, approval: ApprovalEntity) -> String {
        switch outcome {
        case .done(let status): "\(approval.title) is \(status)."
        case .conflict: "\(approval.title) changed since it was listed: nothing was done. Check it in the app."
        case .needsApp: "\(approval.title) needs your confirmation in the app."
        case .refused(let reason): "\(approval.title) was not approved (\(reason.rawValue))."
        case .expired: "The approval of \(approval.title) expired: nothing was done."
        }
    }
}
#endif
