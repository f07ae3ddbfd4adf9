import Foundation

/// Where the vault keeps the secret of its biometric key slot: storage that releases a secret
/// only after the device owner's Face ID or Touch ID, and forgets it when the enrolled faces or
/// fingers change.
///
/// On Apple platforms use ``KeychainBiometricSecretStore`` (a keychain item bound to the current
/// biometric enrolment). The vault writes, reads and removes through it; an app only hands one
/// to ``Vault/init(directory:secrets:name:biometrics:logger:clock:)``.
///
/// Keys are short ASCII names (`[A-Za-z0-9._-]`), chosen by the vault. Implementations must
/// make each `set` atomic: a later read sees the old secret or the new one, never a mix.
public protocol BiometricSecretStore: Sendable {
    /// Stores `secret` under `key`, replacing any previous one, readable only after a biometric
    /// check by the enrolment current now. Storing does not ask the user.
    ///
    /// - Throws: ``BiometricSecretStoreError/unavailable`` when the device has no biometry, none
    ///   enrolled or no device passcode; ``BiometricSecretStoreError/lockedOut``;
    ///   ``BiometricSecretStoreError/failed(_:)``.
    func set(_ secret: Data, forKey key: String) throws(BiometricSecretStoreError)

    /// Asks the user to authenticate with biometrics and returns the secret stored under `key`.
    ///
    /// - Parameters:
    ///   - key: The secret's name.
    ///   - reason: Why the app asks, shown in the system's prompt (Touch ID shows it; Face ID
    ///     shows the Info.plist's `NSFaceIDUsageDescription` when the app asks for the first time).
    /// - Throws: ``BiometricSecretStoreError/cancelled``, ``BiometricSecretStoreError/biometryChanged``
    ///   (also when there is no secret under `key`), ``BiometricSecretStoreError/unavailable``,
    ///   ``BiometricSecretStoreError/lockedOut``, ``BiometricSecretStoreError/failed(_:)``.
    func secret(forKey key: String, reason: String) async throws(BiometricSecretStoreError) -> Data

    /// Removes the secret under `key`, without asking the user; removing a missing one is not an
    /// error.
    func removeSecret(forKey key: String) throws(BiometricSecretStoreError)
}
