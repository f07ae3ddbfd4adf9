/// What redeeming an SSO passcode gets: the user's tokens, and the account they act for as the
/// server named it. The app asks "Sign in as ‹account›?" before it keeps the tokens: a link or
/// QR code made by someone else onboards into *their* account, and only the account's name
/// shows it.
public struct SSOGrant: Sendable, Equatable {
    /// The new grant's tokens.
    public var tokens: TokenSet
    /// The account's user name; `nil` when the server did not say (an older server).
    public var account: String?

    /// A redeemed passcode's grant.
    public init(tokens: TokenSet, account: String?) {
        self.tokens = tokens
        self.account = account
    }
}
