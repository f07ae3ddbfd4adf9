/// What storage knows about one refresh token, for introspection.
struct RefreshTokenStatus: Sendable, Hashable {
    /// The grant it belongs to.
    var family: TokenFamily
    /// When it was issued.
    var issuedAt: Timestamp
    /// When it expires.
    var expiresAt: Timestamp
    /// Whether it has been redeemed (rotated) already.
    var isRotated: Bool

    /// Creates a status.
    init(family: TokenFamily, issuedAt: Timestamp, expiresAt: Timestamp, isRotated: Bool) {
        self.family = family
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.isRotated = isRotated
    }

    /// Whether the token would redeem at `now`: unrotated, unexpired, its grant live.
    func isActive(at now: Timestamp) -> Bool {
        !isRotated && expiresAt > now && family.revokedAt == nil
    }
}
