import Foundation

/// What storage found when it tried to rotate a refresh token.
enum RotationOutcome: Sendable, Equatable {
    /// This redemption won: the token is marked rotated and the successor row inserted.
    case rotated(TokenFamily)
    /// Another redemption rotated the token first. `sealedSuccessor` is that redemption's
    /// successor, still sealed, when the grace window is open; `nil` once it has been erased.
    case alreadyRotated(family: TokenFamily, sealedSuccessor: Data?)
    /// The token's family is revoked.
    case familyRevoked
    /// The token expired before being redeemed.
    case expired
    /// The token belongs to another client; nothing was changed.
    case wrongClient
    /// The token's grant is bound to a DPoP key, and the request's proof (if any) was made by
    /// another; nothing was changed.
    case keyMismatch
    /// A refresh token issued before its grant was bound to a DPoP key was presented again with
    /// another key than the grant's (or none): whoever bound the grant and whoever holds the old
    /// token cannot both be its owner, so the grant is now revoked, as for any reuse.
    case reusedBeforeBinding(TokenFamily)
    /// The request's DPoP proof was recorded before (a replay): nothing was changed.
    case proofReplayed
    /// No such token.
    case unknown
}
