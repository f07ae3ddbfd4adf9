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
    /// The desktop did not decide in time (`expired_token`).
    case expired
    /// Unknown, another client's, expired before use, or already used (`invalid_grant`); the
    /// reason is for the log and the audit, never for the caller.
    case invalid(String)
}
