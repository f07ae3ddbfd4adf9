/// What storage did with a token exchange.
enum ExtensionGrantOutcome: Sendable, Equatable {
    /// The extension grant was created (its expiry no later than its parent's); `replaced` are
    /// the ids of the parent's previous extension grants for the audience, now revoked.
    case created(TokenFamily, replaced: [String])
    /// The parent is revoked, ended, unknown, an extension grant itself or another client's:
    /// nothing was created.
    case parentNotLive
}
