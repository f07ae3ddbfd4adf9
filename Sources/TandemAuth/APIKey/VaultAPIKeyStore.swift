import TandemVault

/// Where an API-key app keeps its key: in the host's ``Vault`` (encrypted, in the host's private
/// container) under one item key, like the tokens of an OAuth app. The vault must be unlocked to
/// load or save; the background flow opens it with the paired key a widget's request carries.
///
/// ```swift
/// try VaultAPIKeyStore(vault: vault).save(keyTheAdministratorEntered)
/// let key = try VaultAPIKeyStore(vault: vault).load()   // an APIKeyAuthentication, or nil
/// ```
public struct VaultAPIKeyStore: Sendable {
    /// The vault holding the key.
    public let vault: Vault
    /// The item key it is stored under.
    public let key: String

    /// A store in `vault` under `key`.
    ///
    /// - Parameters:
    ///   - vault: The host's vault (unlocked when the store is used).
    ///   - key: The item key; `app.api-key` by default.
    public init(vault: Vault, key: String = "app.api-key") {
        self.vault = vault
        self.key = key
    }

    /// The app's key, obfuscated in memory, or `nil` when none is stored.
    public func load() throws(AuthError) -> APIKeyAuthentication? {
        do {
            return try vault.value(String.self, forKey: key).map(APIKeyAuthentication.init(apiKey:))
        } catch {
            throw .storage("cannot read the API key from the vault: \(error)")
        }
    }

    /// Stores `apiKey` in the vault.
    public func save(_ apiKey: String) throws(AuthError) {
        do {
            try vault.set(apiKey, forKey: key)
        } catch {
            throw .storage("cannot write the API key to the vault: \(error)")
        }
    }

    /// Removes the key from the vault.
    public func clear() throws(AuthError) {
        do {
            try vault.removeValue(forKey: key)
        } catch {
            throw .storage("cannot remove the API key from the vault: \(error)")
        }
    }
}
