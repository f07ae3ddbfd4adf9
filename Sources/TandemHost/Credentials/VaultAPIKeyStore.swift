import TandemAuth
import TandemVault

/// Where an API-key app keeps its key: in the host's `Vault` (encrypted, in the host's private
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

    private var item: VaultItem<String> { VaultItem(vault: vault, key: key, what: "the API key") }

    /// The app's key, obfuscated in memory, or `nil` when none is stored.
    public func load() throws(AuthError) -> APIKeyAuthentication? {
        try item.load().map(APIKeyAuthentication.init(apiKey:))
    }

    /// Stores `apiKey` in the vault.
    public func save(_ apiKey: String) throws(AuthError) {
        try item.save(apiKey)
    }

    /// Removes the key from the vault.
    public func clear() throws(AuthError) {
        try item.clear()
    }
}
