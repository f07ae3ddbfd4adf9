/// Where a process keeps its tokens between runs: `VaultTokenStore` in the host,
/// ``SharedGrantStore`` for an extension's grant, ``MemoryTokenStore`` in tests.
///
/// A store must be readable by every process that refreshes the same grant: a
/// ``RefreshCoordinator`` re-reads it to reuse what another process just saved.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when there are none.
    ///
    /// - Throws: ``AuthError/storage(_:)`` when the store cannot be read.
    func load() throws(AuthError) -> TokenSet?

    /// Replaces the stored tokens with `tokens`.
    ///
    /// - Throws: ``AuthError/storage(_:)``; the previous tokens are then left as they were.
    func save(_ tokens: TokenSet) throws(AuthError)

    /// Removes the stored tokens; clearing an empty store is not an error.
    func clear() throws(AuthError)
}
