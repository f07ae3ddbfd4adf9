/// What storage did with a token exchange.
enum ExtensionGrantOutcome: Sendable, Equatable {
    /// The extension grant was created (its expiry no later than its parent's); `replaced` are
    /// the ids of the parent's previous extension grants for the audience, now revoked.
    case created(TokenFamily, replaced: [String])
    /// The parent is revoked, ended, unknown, an extension grant itself or another client's:
    /// nothing was created.
    case parentNotLive
    /// The key the grant was to be bound to is the step-up key of the parent's sign-in: a key
    /// the widgets hold must never stand for the user's presence. Nothing was created.
    case keyIsStepUpKey
    /// One of the request's DPoP proofs was recorded before (a replay); nothing was created.
    case proofReplayed
}
