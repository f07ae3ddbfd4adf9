import Foundation

/// The inputs of one redemption, prepared by ``RefreshTokenService`` before it touches storage:
/// the successor already generated, hashed and (inside a grace window) sealed.
struct RefreshTokenRotation: Sendable {
    /// The hash of the token presented.
    var presentedHash: String
    /// The client that presented it; a token only redeems for its own client.
    var clientID: String
    /// The hash of the successor token to install if this redemption wins.
    var successorHash: String
    /// The successor sealed for losers inside the grace window; `nil` when the window is zero.
    var sealedSuccessor: Data?
    /// When the sealed successor must be erased.
    var sealedUntil: Timestamp
    /// When the successor expires.
    var successorExpiresAt: Timestamp
    /// The time of the redemption.
    var now: Timestamp
    /// The request's DPoP proof, checked but not yet recorded, if it sent one: a grant bound to
    /// a key rotates only for that key, the rotation only while the proof is unseen, and the
    /// proof is recorded by the rotation statement itself when the request is granted.
    var proof: DPoPProofRecord?
    /// Whether a bearer grant becomes bound to the proof's key (its app requires DPoP); otherwise
    /// a bearer grant stays bearer whatever proof comes with it.
    var bindsBearerGrant: Bool

    /// The thumbprint of the key that made the request's proof, if it sent one.
    var proofJKT: String? { proof?.jkt }

    /// Creates a rotation request.
    init(
        presentedHash: String, clientID: String, successorHash: String, sealedSuccessor: Data?,
        sealedUntil: Timestamp, successorExpiresAt: Timestamp, now: Timestamp, proof: DPoPProofRecord? = nil,
        bindsBearerGrant: Bool = false
    ) {
        self.presentedHash = presentedHash
        self.clientID = clientID
        self.successorHash = successorHash
        self.sealedSuccessor = sealedSuccessor
        self.sealedUntil = sealedUntil
        self.successorExpiresAt = successorExpiresAt
        self.now = now
        self.proof = proof
        self.bindsBearerGrant = bindsBearerGrant
    }
}
