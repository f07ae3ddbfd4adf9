import TandemAuth
import TandemVault

/// One Codable item of the host's vault, read and written with `AuthError/storage(_:)` for
/// any vault failure, naming `what` it holds: what ``VaultTokenStore`` and ``VaultAPIKeyStore``
/// share.
struct VaultItem<Value: Codable> {
    let vault: Vault
    let key: String
    /// What the item holds, for error messages ("tokens", "the API key").
    let what: String

    func load() throws(AuthError) -> Value? {
        do {
            return try vault.value(Value.self, forKey: key)
        } catch {
            throw .storage("cannot read \(what) from the vault: \(error)")
        }
    }

    func save(_ value: Value) throws(AuthError) {
        do {
            try vault.set(value, forKey: key)
        } catch {
            throw .storage("cannot write \(what) to the vault: \(error)")
        }
    }

    func clear() throws(AuthError) {
        do {
            try vault.removeValue(forKey: key)
        } catch {
            throw .storage("cannot remove \(what) from the vault: \(error)")
        }
    }
}
