#if canImport(AppIntents, _version: 163) && os(iOS)
import Foundation
import TandemSharedContainer

/// Why an approval shortcut ("Approve ⟨item⟩", "Show my approvals") did nothing. Siri and the
/// Shortcuts app say the ``description``; every case leaves the item as it was, except
/// ``notConfirmed``, which cannot know.
public enum ApprovalShortcutsError: Error, Equatable, Sendable, CustomStringConvertible, CustomLocalizedStringResourceConvertible {
    /// The app did not call `ApprovalShortcuts.install(_:)` at launch.
    case notInstalled
    /// The app cannot list the approvals now (`reason` says why: signed out, offline).
    case approvalsUnavailable(reason: String)
    /// The user's session could not be opened: the vault stayed locked (the passcode prompt was
    /// cancelled) or nobody is signed in. `reason` is for logs.
    case noSession(reason: String)
    /// Extension access is not enabled yet (no auxiliary share or sealing key): the app's
    /// restoring flow enables it after sign-in.
    case notArmed
    /// The app gave no step-up key (`reason` says why: no Secure Enclave, no passcode set).
    case stepUpKeyUnavailable(reason: String)
    /// The action request could not be written to the shared container.
    case container(SharedContainerError)
    /// The approval was not confirmed: the user cancelled Face ID or the passcode, or the
    /// server did not answer. The request was withdrawn; if the server had received it, the
    /// approvals list shows it decided.
    case notConfirmed

    /// What went wrong, in words Siri can say.
    public var description: String {
        switch self {
        case .notInstalled: "The app is not set up for approval shortcuts."
        case .approvalsUnavailable(let reason): "The approvals cannot be listed now: \(reason)."
        case .noSession(let reason): "Unlock the app to decide approvals (\(reason))."
        case .notArmed: "Sign in to the app first."
        case .stepUpKeyUnavailable(let reason): "This device cannot confirm approvals: \(reason)."
        case .container(let error): "The approval could not be handed to the app: \(error)."
        case .notConfirmed: "Nothing was approved: it was not confirmed. Check your approvals in the app."
        }
    }

    /// The ``description``, for the system to show.
    public var localizedStringResource: LocalizedStringResource { "\(description)" }
}
#endif
