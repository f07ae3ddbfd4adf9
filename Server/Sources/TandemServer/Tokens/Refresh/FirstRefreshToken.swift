/// A new grant and the hash of its first refresh token, for inserting many at once.
public struct FirstRefreshToken: Sendable, Hashable {
    /// The family to create.
    public var family: TokenFamily
    /// The first token's hash.
    public var tokenHash: String
    /// When the first token expires.
    public var expiresAt: Timestamp

    /// Creates an entry.
    public init(family: TokenFamily, tokenHash: String, expiresAt: Timestamp) {
        self.family = family
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
