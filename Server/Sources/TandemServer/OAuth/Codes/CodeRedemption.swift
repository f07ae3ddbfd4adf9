import TandemProtocol

/// One attempt to redeem an authorization code, with everything the winner writes.
struct CodeRedemption: Sendable {
    /// The presented code's hash.
    var codeHash: String
    /// The client presenting it.
    var clientID: String
    /// The redirect URI presented with it (must equal the authorization request's).
    var redirectURI: String
    /// The S256 challenge computed from the presented verifier.
    var computedChallenge: String
    /// The family to create when this attempt wins (its user and scope are taken from the code).
    var familyID: String
    /// The first refresh token's hash for that family.
    var refreshTokenHash: String
    /// When that refresh token expires.
    var refreshTokenExpiresAt: Timestamp
    /// When the grant ends whatever its rotations; `nil` ends it with its first refresh token.
    var grantExpiresAt: Timestamp?
    /// The audience of the access tokens minted from the family.
    var audience: String
    /// The time of the attempt.
    var now: Timestamp
    /// The request's DPoP proof, checked but not yet recorded: the new grant is bound to its
    /// key, and it is recorded in the redemption's transaction (a replay undoes the redemption).
    var dpopProof: DPoPProofRecord?
    /// The step-up key the sign-in enrols, kept for the new grant in the same transaction.
    var stepUpKey: DPoPPublicKey?

    /// The thumbprint of the DPoP key the new grant is bound to, if the request proved one.
    var dpopJKT: String? { dpopProof?.jkt }

    /// Creates an attempt.
    init(
        codeHash: String, clientID: String, redirectURI: String, computedChallenge: String, familyID: String,
        refreshTokenHash: String, refreshTokenExpiresAt: Timestamp, audience: String, now: Timestamp, grantExpiresAt: Timestamp? = nil,
        dpopProof: DPoPProofRecord? = nil, stepUpKey: DPoPPublicKey? = nil
    ) {
        self.grantExpiresAt = grantExpiresAt
        self.codeHash = codeHash
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.computedChallenge = computedChallenge
        self.familyID = familyID
        self.refreshTokenHash = refreshTokenHash
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.audience = audience
        self.now = now
        self.dpopProof = dpopProof
        self.stepUpKey = stepUpKey
    }
}
