/// A new grant and the hash of its first refresh token, for inserting many at once.
struct FirstRefreshToken: Sendable, Hashable {
    /// The family to create.
    var family: TokenFamily
    /// The first token's hash.
    var tokenHash: String
    /// When the first token expires.
    var expiresAt: Timestamp

    /// Creates an entry.
    init(family: TokenFamily, tokenHash: String, expiresAt: Timestamp) {
        self.family = family
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
