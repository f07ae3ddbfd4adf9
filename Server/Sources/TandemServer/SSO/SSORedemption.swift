/// What a phone's SSO passcode redemption gets, in the device-authorization grant's terms
/// (RFC 8628 §3.5) where the desktop must approve.
enum SSORedemption: Sendable, Equatable {
    /// Tokens for this user's new grant.
    case granted(userID: String)
    /// Claimed; the desktop has not decided yet (`authorization_pending`).
    case pending
    /// Polled sooner than the interval (`slow_down`).
    case slowDown
    /// The desktop denied the device (`access_denied`).
    case denied
    /// Two devices presented the passcode; nobody gets tokens (`access_denied`, saying so).
    case cancelled
    /// The desktop did not decide in time, or the device did not collect its approved tokens
    /// in time (`expired_token`).
    case expired
    /// No passcode has this value (`invalid_grant`): a guess, or a mistyped link.
    case unknown
    /// Another client's, expired before use, or already used (`invalid_grant`); the
    /// reason is for the log and the audit, never for the caller.
    case invalid(String)
    /// Presented again after its tokens were released (`invalid_grant`): the grant it released,
    /// if any is recorded yet, must be revoked.
    case reused(String, releasedFamily: String?)
}
