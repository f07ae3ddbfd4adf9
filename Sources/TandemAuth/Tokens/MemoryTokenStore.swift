import TandemPlatform

/// A ``TokenStore`` in memory, for tests and for processes that must not persist tokens.
public final class MemoryTokenStore: TokenStore {
    private let tokens: Locked<TokenSet?>

    /// A store holding `tokens` at first.
    public init(_ tokens: TokenSet? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The tokens held.
    public func load() -> TokenSet? { tokens.withLock { $0 } }

    /// Replaces the tokens held.
    public func save(_ tokens: TokenSet) { self.tokens.withLock { $0 = tokens } }

    /// Forgets the tokens.
    public func clear() { tokens.withLock { $0 = nil } }
}
