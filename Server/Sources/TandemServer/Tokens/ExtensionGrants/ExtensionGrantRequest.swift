/// The inputs of one token exchange, prepared by ``RefreshTokenService`` before it touches
/// storage: the child family's id and first token already generated and hashed.
struct ExtensionGrantRequest: Sendable {
    /// The user grant the subject token was minted from.
    var parentID: String
    /// The client exchanging; the parent must be its grant.
    var clientID: String
    /// The id of the extension grant to create.
    var familyID: String
    /// The extension grant's scope.
    var scope: String
    /// The extension grant's audience; one live extension grant per parent and audience.
    var audience: String
    /// The hash of its first refresh token.
    var tokenHash: String
    /// When that token expires (no later than the grant).
    var tokenExpiresAt: Timestamp
    /// When the grant ends at the latest; storage moves it earlier to the parent's end.
    var grantExpiresAt: Timestamp
    /// The time of the exchange.
    var now: Timestamp
    /// The thumbprint of the DPoP key the grant is bound to, if any.
    var dpopJKT: String?
    /// The request's DPoP proofs, checked but not yet recorded: recorded in the exchange's
    /// transaction, which a replayed one undoes.
    var proofs: [DPoPProofRecord]

    /// Creates a request.
    init(
        parentID: String, clientID: String, familyID: String, scope: String, audience: String, tokenHash: String,
        tokenExpiresAt: Timestamp, grantExpiresAt: Timestamp, now: Timestamp, dpopJKT: String? = nil, proofs: [DPoPProofRecord] = []
    ) {
        self.parentID = parentID
        self.clientID = clientID
        self.familyID = familyID
        self.scope = scope
        self.audience = audience
        self.tokenHash = tokenHash
        self.tokenExpiresAt = tokenExpiresAt
        self.grantExpiresAt = grantExpiresAt
        self.now = now
        self.dpopJKT = dpopJKT
        self.proofs = proofs
    }
}
