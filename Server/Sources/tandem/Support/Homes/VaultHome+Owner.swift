import TandemTool
import TandemVault

extension VaultHome {
    /// Opens the vault as its owner would: with the passcode (from `passcode`), or without one
    /// for a vault created with `--no-passcode`.
    ///
    /// - Throws: `VaultError/notCreated` when there is no vault, and the unlock's errors.
    func unlockAsOwner(passcode: PasscodeOptions) throws {
        let status = try vault.status()
        guard status.exists else { throw VaultError.notCreated }
        if status.protection == .deviceOnly {
            try vault.unlock()
        } else {
            try vault.unlock(passcode: passcode.resolve())
        }
    }
}
