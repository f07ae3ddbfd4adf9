/// Where an SSO passcode is in its one-way life.
enum SSOPasscodeState: String, Sendable, Hashable {
    /// Shown on the desktop page; not yet used.
    case issued
    /// A phone redeemed it and waits for the desktop's decision.
    case claimed
    /// The desktop approved the phone: its next poll gets the tokens.
    case approved
    /// The desktop denied the phone.
    case denied
    /// A second device presented the passcode after the first claimed it: the transfer stops,
    /// nobody is offered Approve and no tokens are released (RFC 10027 §6.1.13).
    case cancelled
    /// Tokens were released; any further use is a reuse.
    case redeemed
}
