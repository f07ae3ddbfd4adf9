/// What storage knows about one refresh token, for introspection.
public struct RefreshTokenStatus: Sendable, Hashable {
    /// The grant it belongs to.
    public var family: TokenFamily
    /// When it was issued.
    public var issuedAt: Timestamp
    /// When it expires.
    public var expiresAt: Timestamp
    /// Whether it has been redeemed (rotated) already.
    public var isRotated: Bool

    /// Creates a status.
    public init(family: TokenFamily, issuedAt: Timestamp, expiresAt: Timestamp, isRotated: Bool) {
        self.family = family
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.isRotated = isRotated
    }

    /// Whether the token would redeem at `now`: unrotated, unexpired, its grant live.
    public func isActive(at now: Timestamp) -> Bool {
        !isRotated && expiresAt > now && family.revokedAt == nil
    }
}
