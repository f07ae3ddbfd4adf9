import Foundation

/// Everything that can go wrong with a ``Vault``, each case saying what the caller can do next.
///
/// Every failing operation leaves the stored data as it was: a vault is never half-written.
///
/// ```swift
/// do {
///     try vault.unlock(passcode: entered)
/// } catch .wrongPasscode(let remaining) {
///     showRetry(remainingAttempts: remaining)
/// } catch .throttled(let until), .lockedOut(let until) {
///     showWait(until: until)
/// } catch {
///     showError(error)
/// }
/// ```
public enum VaultError: Error, Sendable, Equatable {
    /// There is no vault in the directory yet: call `create(passcode:policy:)` or
    /// `createWithoutPasscode()`.
    case notCreated
    /// A vault already exists in the directory; `destroy()` it first to start over.
    case alreadyExists
    /// The operation needs the vault unlocked.
    case locked
    /// The passcode is wrong. After `remainingAttempts` more failures the policy's limit
    /// action (lock or wipe) applies.
    case wrongPasscode(remainingAttempts: Int)
    /// Too many recent failures: the next passcode attempt is accepted from this date on.
    case throttled(until: Date)
    /// The retry limit was reached and the policy locks the vault until this date.
    case lockedOut(until: Date)
    /// The retry limit was reached and the policy wiped the vault: its data is gone.
    case wiped
    /// The new passcode does not satisfy the vault's ``PasscodePolicy``.
    case policyViolation([PasscodePolicy.Violation])
    /// The vault was created with a passcode; unlock it with `unlock(passcode:)`.
    case passcodeRequired
    /// The vault was created without a passcode; passcode operations do not apply.
    case noPasscodeSet
    /// The auxiliary share does not open the vault: it is wrong, damaged, or was rotated away.
    case wrongPairedKey
    /// Extension access was never enabled (or was disabled): there is no paired key to rotate.
    case extensionAccessNotEnabled
    /// Stored data failed authentication: it was modified outside the vault.
    /// The named item (or key slot) cannot be read; other items are unaffected. `"the item set"`
    /// means items were put back, removed, added or moved: no item is served until the vault
    /// is destroyed and set up again.
    case tampered(String)
    /// The vault file is older than the last state this device recorded, or is another
    /// vault's file: an earlier copy was put back in place.
    case rolledBack
    /// The vault file is damaged or not a vault.
    case corrupt(String)
    /// A value could not be encoded or decoded with `Codable`.
    case coding(String)
    /// The database or file system failed (disk full, permissions, I/O error).
    case storage(String)
    /// The `SecretStorage` (keychain or secrets directory) failed.
    case secretStorage(String)
    /// The secrets cannot be read now because the device is locked and has not been unlocked
    /// since it started (the keychain's errSecInteractionNotAllowed). Nothing is wrong with the
    /// session: a widget shows its last rows as unavailable and tries again later, never
    /// "signed out".
    case deviceLocked
    /// The passcode policy does not allow biometric unlock: ask for the passcode.
    case biometricsNotAllowed
    /// Biometric unlock is not enabled (or was removed): ask for the passcode, then offer
    /// ``Vault/enableBiometricUnlock()``.
    case biometricsNotEnabled
    /// The user cancelled Face ID or Touch ID, chose the passcode, or was not recognised. The
    /// vault stays locked and nothing changed: ask for the passcode.
    case biometricsCancelled
    /// The enrolled faces or fingers changed, so the biometric secret is gone for good. The
    /// vault removed its biometric way in: ask for the passcode; after that unlock the app may
    /// offer ``Vault/enableBiometricUnlock()`` again.
    case biometricsChanged
    /// The device has no biometry, none enrolled, no device passcode, or the vault was given no
    /// ``BiometricSecretStore``: ask for the passcode.
    case biometricsUnavailable
    /// Too many failed biometric attempts: the system wants the device passcode first. Ask for
    /// the vault's passcode.
    case biometricsLockedOut
}

extension VaultError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notCreated: "no vault has been created in this directory"
        case .alreadyExists: "a vault already exists in this directory"
        case .locked: "the vault is locked"
        case .wrongPasscode(let remaining): "wrong passcode (\(remaining) attempts remaining)"
        case .throttled(let until): "too many failed attempts; try again after \(until)"
        case .lockedOut(let until): "the vault is locked out until \(until)"
        case .wiped: "too many failed attempts: the vault was wiped"
        case .policyViolation(let violations):
            "the passcode does not meet the policy: "
                + violations.map(\.description).joined(separator: ", ")
        case .passcodeRequired: "this vault is opened with a passcode"
        case .noPasscodeSet: "this vault has no passcode"
        case .wrongPairedKey: "the paired access key does not open this vault"
        case .extensionAccessNotEnabled: "extension access is not enabled for this vault"
        case .tampered(let what): "\(what) failed authentication (modified outside the vault)"
        case .rolledBack: "the vault file is older than this device's record (rolled back)"
        case .corrupt(let reason): "the vault is damaged: \(reason)"
        case .coding(let reason): "value coding failed: \(reason)"
        case .storage(let reason): "vault storage failed: \(reason)"
        case .secretStorage(let reason): "secret storage failed: \(reason)"
        case .deviceLocked: "the device is locked: its secrets cannot be read until it is unlocked"
        case .biometricsNotAllowed: "the passcode policy does not allow biometric unlock"
        case .biometricsNotEnabled: "biometric unlock is not enabled for this vault"
        case .biometricsCancelled: "biometric unlock was cancelled"
        case .biometricsChanged: "the enrolled biometrics changed: unlock with the passcode and enable biometric unlock again"
        case .biometricsUnavailable: "biometric unlock is not available on this device"
        case .biometricsLockedOut: "biometric unlock is locked out"
        }
    }
}
