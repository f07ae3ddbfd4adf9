import Foundation
import TandemAuth
import TandemProtocol
import TandemVault

/// A step-up key kept in the host's vault: a software P-256 key for platforms without a secure
/// element (Linux, tests, the command-line host).
///
/// On a phone the step-up key lives in the Secure Enclave behind user presence
/// (`SecureEnclaveStepUpKey`), so the system asks for Face ID or the passcode at each signature.
/// A key in the vault has no such guard of its own: the vault also opens with the extensions'
/// paired key in the background. So the SDK hands it out only where the user is present: at the
/// sign-in that enrols it (``AuthenticationStep``'s `stepUpKey`, after the vault step opened the
/// vault with the passcode) and in the restoring flow that the passcode opened
/// (``ActionExecutionStep``'s `stepUpKey`), never in the background flow; that is a rule of the
/// code, not of the hardware, and the reason a phone should use the Secure Enclave's.
///
/// ```swift
/// let stepUpKey: @Sendable (FlowContext) async throws -> (any DPoPSigner)? = { context in try VaultStepUpKey.key(in: context.vault) }
/// Flow([ /* … */ AuthenticationStep(stepUpKey: stepUpKey), /* … */ ActionExecutionStep(stepUpKey: stepUpKey) ])
/// ```
public enum VaultStepUpKey {
    /// The vault item holding the key's private half.
    static let itemKey = "tandem.step-up-key"

    /// The vault's step-up key, made and stored first if there is none.
    ///
    /// - Parameter vault: The host's vault, unlocked.
    /// - Throws: ``TandemAuth/AuthError/storage(_:)`` when the vault cannot be read or written,
    ///   or holds a damaged key.
    public static func key(in vault: Vault) throws(AuthError) -> SoftwareDPoPKey {
        let item = VaultItem<Data>(vault: vault, key: itemKey, what: "the step-up key")
        if let stored = try item.load() {
            do {
                return try SoftwareDPoPKey(rawRepresentation: stored)
            } catch {
                throw .storage("the vault's step-up key is damaged")
            }
        }
        let key = SoftwareDPoPKey()
        try item.save(key.rawRepresentation)
        return key
    }
}
