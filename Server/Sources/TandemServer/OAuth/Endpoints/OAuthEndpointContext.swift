import Logging
import TandemPlatform

/// What the OAuth endpoints share: the token services, the client directory, the rate limiters
/// the request limits and the clock.
struct OAuthEndpointContext: Sendable {
    /// Redeems and issues refresh tokens.
    let refreshTokens: RefreshTokenService
    /// Issues and redeems authorization codes.
    let codes: AuthorizationCodeService
    /// Mints and verifies access tokens.
    let accessTokens: AccessTokenSigner
    /// Registered apps, cached.
    let clients: ClientDirectory
    /// Users and administrators.
    let accounts: AccountStore
    /// Apps, their API keys and the audiences they serve.
    let apps: AppStore
    /// Token families, for revocation and introspection.
    let tokens: TokenStore
    /// Browser sessions and the clients they confirmed.
    let browserSessions: BrowserSessionStore
    /// Limits on `/oauth/token` and `/oauth/revoke`: a bucket per registered client, one shared
    /// by every unknown client id.
    let tokenLimiter: RateLimiter
    /// Per-source-address limits on sign-in attempts.
    let loginLimiter: RateLimiter
    /// Failed sign-ins per account, shared by every instance.
    let signInFailures: SignInFailureStore
    /// The escalating delay after failed sign-ins to one account from one address.
    let signInThrottle: SignInThrottle
    /// The escalating delay after failed sign-ins to one account from every address together.
    let accountSignInThrottle: SignInThrottle
    /// Per-caller limits on `/oauth/introspect`.
    let introspectionLimiter: RateLimiter
    /// Recently revoked grants, shared with the `/v1` endpoints.
    let revocations: RevocationList
    /// The largest request body accepted.
    let maxBodySize: Int
    /// How long a browser session lasts.
    let browserSessionLifetime: Duration
    /// Whether cookies get the `Secure` attribute (the issuer is `https`).
    let secureCookies: Bool
    /// The sign-in pages.
    let pages: WebPages
    /// Cross-context SSO passcodes and their audit.
    let sso: SSOPasscodeService
    /// Per-source-address limits on SSO passcode redemptions.
    let ssoLimiter: RateLimiter
    /// Per-user limits on new SSO passcodes.
    let ssoIssueLimiter: RateLimiter
    /// Checks DPoP proofs and spends their `jti` (shared by every instance through the database).
    let dpop: DPoPVerifier
    /// The server's DPoP nonces, which the token endpoint requires in proofs and sends in every
    /// answer.
    let dpopNonces: DPoPNonces
    /// The universal SSO links' domain of apps with an Apple app id and no link host of their own
    /// (``TandemServerConfiguration/ssoLinkHost``).
    let ssoLinkHost: String?
    /// The users' step-up keys, enrolled with a sign-in.
    let stepUpKeys: StepUpKeyStore
    /// Where token reuse, refused exchanges and step-up enrolments are recorded (refusals
    /// sampled per app and address).
    let audit: AuditLog
    /// Receives one line per outcome, never a secret.
    let logger: Logger
    /// What time it is: every expiry, lifetime, throttle and interval of the endpoints reads it
    /// here (the rate limiters, the SSO service and the client directory hold the same clock).
    let clock: any WallClock
}
