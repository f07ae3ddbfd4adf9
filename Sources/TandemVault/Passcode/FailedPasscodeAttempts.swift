import TandemProtocol

/// Wrong passcodes entered since the user last opened the vault, as
/// ``Vault/unlock(biometricsReason:)`` reports them: the app tells the user, because Face ID
/// neither asks for the passcode nor gives back the attempts spent on it.
///
/// Under a policy that wipes the vault, someone holding the phone can spend every attempt but one,
/// and the owner, opening the app with Face ID, would otherwise never know that the next wrong
/// passcode erases it.
///
/// ```swift
/// let failed = try await vault.unlock(biometricsReason: "Unlock your account")
/// if failed.count > 0 {
///     await showAlert("\(failed.count) wrong passcodes were entered since you last opened the app.")
/// }
/// ```
public struct FailedPasscodeAttempts: Sendable, Equatable {
    /// Wrong passcodes entered since the user last opened the vault, with the passcode or with
    /// Face ID or Touch ID (the background's openings by the paired key do not count).
    public var count: Int
    /// Passcode attempts left before the policy's ``onLimit`` applies: a biometric unlock gives
    /// none back, only a correct passcode does.
    public var remainingAttempts: Int
    /// What the policy does when no attempt remains.
    public var onLimit: PasscodeLimitAction

    /// A report of `count` wrong passcodes, with `remainingAttempts` left before `onLimit`.
    public init(count: Int, remainingAttempts: Int, onLimit: PasscodeLimitAction) {
        self.count = count
        self.remainingAttempts = remainingAttempts
        self.onLimit = onLimit
    }
}
