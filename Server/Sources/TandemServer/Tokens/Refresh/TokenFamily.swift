/// A refresh-token family: every token descended by rotation from one grant. Reuse of a
/// rotated token revokes the whole family, so a stolen token dies with the legitimate one.
struct TokenFamily: Sendable, Hashable {
    /// A random identifier (a UUID string), safe to log.
    var id: String
    /// The app the grant was made to.
    var clientID: String
    /// The user the grant acts for.
    var userID: String
    /// The granted scope (space-separated).
    var scope: String
    /// The audience of the access tokens minted from this family.
    var audience: String
    /// When the grant was made.
    var createdAt: Timestamp
    /// When the family was revoked, if it was.
    var revokedAt: Timestamp?
    /// For a scoped extension grant, the user grant it was exchanged from; revoking that one
    /// revokes this one too.
    var parentID: String?
    /// When the grant ends whatever its rotations; no refresh token of it expires later. `nil`
    /// on a new record means "when its first refresh token does".
    var expiresAt: Timestamp?
    /// The thumbprint (RFC 7638) of the DPoP key the grant is bound to (`cnf.jkt`): its refresh
    /// tokens redeem only with a proof made by that key, and its access tokens carry it. `nil`:
    /// a bearer grant.
    var dpopJKT: String?
    /// When a bearer grant was bound to ``dpopJKT`` at a refresh; `nil` for a grant bound from
    /// its start (or a bearer grant). Its refresh tokens issued before this moment are spent.
    var dpopBoundAt: Timestamp?

    /// The `token_type` of the tokens minted from it: `DPoP` when bound to a key, `Bearer`
    /// otherwise (RFC 9449 §5).
    var tokenType: String { dpopJKT == nil ? "Bearer" : "DPoP" }

    /// Creates a family record.
    init(
        id: String, clientID: String, userID: String, scope: String, audience: String, createdAt: Timestamp, revokedAt: Timestamp?,
        parentID: String? = nil, expiresAt: Timestamp? = nil, dpopJKT: String? = nil, dpopBoundAt: Timestamp? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.audience = audience
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.parentID = parentID
        self.expiresAt = expiresAt
        self.dpopJKT = dpopJKT
        self.dpopBoundAt = dpopBoundAt
    }
}
