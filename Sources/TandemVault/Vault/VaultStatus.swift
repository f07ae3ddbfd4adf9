import Foundation

/// What a ``Vault`` looks like from outside, readable while it is locked.
public struct VaultStatus: Sendable, Equatable, Codable {
    /// How the vault's data key is protected for its owner.
    public enum Protection: String, Sendable, Codable {
        /// Opened by a passcode (mixed with the device secret).
        case passcode
        /// Opened by the device secret alone, without asking the user.
        case deviceOnly
    }

    /// Whether a vault exists in the directory.
    public var exists: Bool
    /// The vault's protection; `nil` when it does not exist.
    public var protection: Protection?
    /// Whether this ``Vault`` instance currently holds the keys.
    public var isUnlocked: Bool
    /// Whether a paired access key (auxiliary + primary share) can open the vault.
    public var extensionAccessEnabled: Bool
    /// Whether ``Vault/enableBiometricUnlock()`` may be offered: a passcode vault given a
    /// ``BiometricSecretStore``, whose policy allows biometrics.
    public var biometricUnlockAllowed: Bool
    /// Whether Face ID or Touch ID can open the vault now (``Vault/unlock(biometricsReason:)``).
    public var biometricUnlockEnabled: Bool
    /// Consecutive wrong passcodes since the last success: the policy's count, which only a
    /// correct passcode clears.
    public var failedAttempts: Int
    /// Wrong passcodes since the user last opened the vault, with the passcode or with Face ID or
    /// Touch ID: what ``Vault/unlock(biometricsReason:)`` will report, and the app should tell.
    public var failedAttemptsSinceUnlock: Int
    /// Passcode attempts left before the policy's limit action.
    public var remainingAttempts: Int?
    /// The earliest date of the next passcode attempt, when a delay or lockout applies.
    public var nextAttemptAllowedAt: Date?
}
