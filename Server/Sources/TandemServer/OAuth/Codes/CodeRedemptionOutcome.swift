/// What storage found when it tried to redeem an authorization code.
enum CodeRedemptionOutcome: Sendable, Equatable {
    /// This attempt won: the code is spent and the family with its first refresh token exists.
    case redeemed(TokenFamily)
    /// The code was redeemed before; the family it produced (and its extension grants) is now revoked.
    case reused
    /// The code expired; nothing was changed.
    case expired
    /// Another client, another redirect URI or a verifier that does not match the challenge;
    /// nothing was changed.
    case mismatch
    /// The request's DPoP proof was recorded before (a replay); nothing was changed.
    case proofReplayed
    /// No such code; nothing was changed.
    case unknown
}
