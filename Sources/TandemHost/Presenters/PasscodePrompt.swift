import TandemVault

/// Asks the user for the app's passcode: a secure text field in an app, the terminal with echo
/// off in the command-line host, a fixed value in tests (``FixedPasscodePrompt``).
public protocol PasscodePrompt: Sendable {
    /// The passcode the user typed.
    ///
    /// - Parameters:
    ///   - purpose: Whether the user chooses a new passcode or unlocks with theirs.
    ///   - policy: The server's passcode policy, for the prompt to explain (length, classes).
    /// - Throws: `CancellationError` when the user dismisses the prompt.
    func passcode(for purpose: PasscodePurpose, policy: PasscodePolicy) async throws -> String
}

/// Why the app asks for the passcode.
public enum PasscodePurpose: Sendable, Equatable {
    /// Choosing the passcode that will protect the new vault.
    case create
    /// Unlocking the vault; `remainingAttempts` before the policy locks or wipes it, if limited.
    case unlock(remainingAttempts: Int?)
}
