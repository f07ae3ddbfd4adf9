import TandemAuth
import TandemVault

/// The host's `TokenStore`: the tokens live in the `Vault` (encrypted, in the host's private
/// container) under one item key. The vault must be unlocked to load or save.
///
/// ```swift
/// let store = VaultTokenStore(vault: vault)
/// try store.save(tokens)
/// ```
public struct VaultTokenStore: TokenStore {
    /// The vault holding the tokens.
    public let vault: Vault
    /// The item key they are stored under.
    public let key: String

    /// A store in `vault` under `key`.
    ///
    /// - Parameters:
    ///   - vault: The host's vault (unlocked when the store is used).
    ///   - key: The item key; `oauth.tokens` by default.
    public init(vault: Vault, key: String = "oauth.tokens") {
        self.vault = vault
        self.key = key
    }

    private var item: VaultItem<TokenSet> { VaultItem(vault: vault, key: key, what: "tokens") }

    /// The tokens in the vault, or `nil`.
    public func load() throws(AuthError) -> TokenSet? {
        try item.load()
    }

    /// Stores `tokens` in the vault.
    public func save(_ tokens: TokenSet) throws(AuthError) {
        try item.save(tokens)
    }

    /// Removes the tokens from the vault.
    public func clear() throws(AuthError) {
        try item.clear()
    }
}
