import Foundation
import TandemPlatform

/// The names under which one vault keeps its secrets in `SecretStorage`.
struct SecretKeys: Sendable {
    let vaultName: String

    /// 32 random bytes mixed into the passcode key and alone wrapping a no-passcode vault.
    var deviceSecret: String { "\(vaultName).device-secret" }
    /// The host's shares of the paired keys, by key identifier (see ``PrimaryShares``).
    var primaryShares: String { "\(vaultName).primary-shares" }
    /// The extensions' share (in the shared storage only).
    var auxiliaryShare: String { AuxiliaryShare.storageKey(vaultName: vaultName) }
    /// The failed-attempt counter and lockout state.
    var attempts: String { "\(vaultName).attempts" }
    /// The passcode policy, kept where editing the vault file cannot relax it.
    var policy: String { "\(vaultName).policy" }
    /// The vault's identity and generation, for rollback detection.
    var generation: String { "\(vaultName).generation" }
    /// The id of a biometric slot whose secret was revoked while the vault was locked (the
    /// enrolment changed, biometrics were disabled or forbidden): the slot goes at the next
    /// unlock by passcode.
    var biometricRevoked: String { "\(vaultName).biometric-revoked" }

    /// The name, in the ``BiometricSecretStore``, of the secret of the biometric slot `id`.
    func biometricSecret(id: Data) -> String { "\(vaultName).biometric.\(id.hexString)" }
}
