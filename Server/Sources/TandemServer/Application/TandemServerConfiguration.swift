import TandemBackends
/// Everything `tandem serve` can set about the server.
public struct TandemServerConfiguration: Sendable {
    /// The address to listen on (default loopback).
    public var host: String
    /// The port to listen on; 0 picks a free one (reported through `onServerRunning`).
    public var port: Int
    /// Where the data lives.
    public var database: DatabaseLocation
    /// The issuer URL: the `iss` of access tokens.
    public var issuer: String
    /// How long a retried redemption of a just-rotated refresh token receives the same successor.
    public var graceWindow: Duration
    /// How long refresh tokens live.
    public var refreshTokenLifetime: Duration
    /// How long access tokens live.
    public var accessTokenLifetime: Duration
    /// The largest request body accepted; larger bodies get `413`.
    public var maxRequestBodySize: Int
    /// The largest entity set a resource server may write in one `PUT` (its JSON body); larger
    /// ones get `413`.
    public var maxEntitySetSize: Int = 8 * 1024 * 1024
    /// How often sealed successors whose grace window has ended are erased.
    public var sweepInterval: Duration
    /// How long an authorization code can be redeemed.
    public var authorizationCodeLifetime: Duration = .seconds(60)
    /// How long a browser session of the sign-in page lasts.
    public var browserSessionLifetime: Duration = .seconds(8 * 3600)
    /// Per-client limit on `/oauth/token` and `/oauth/revoke` (unknown clients share one bucket).
    public var tokenRateLimit: RateLimitPolicy = .perSecond(500)
    /// Per-source-address limit on sign-in attempts (`POST /oauth/authorize`).
    public var loginRateLimit: RateLimitPolicy = RateLimitPolicy(requestsPerSecond: 2, burst: 10)
    /// The escalating delay after failed sign-ins to one account from one address.
    public var signInThrottle = SignInThrottle()
    /// The delay after failed sign-ins to one account from all addresses together: far more
    /// allowance than ``signInThrottle`` (which counts per address), so that a stranger cannot
    /// lock a user out, while guesses spread over many addresses still slow down.
    public var accountSignInThrottle = SignInThrottle(freeFailures: 50, firstDelay: .seconds(60), maximumDelay: .seconds(15 * 60))
    /// How many password hashes may run at once (each holds 128 MiB at the default cost).
    public var concurrentPasswordHashes = 2
    /// Per-caller limit on `/oauth/introspect`.
    public var introspectionRateLimit: RateLimitPolicy = .perSecond(500)
    /// How long an SSO passcode on the desktop page may be redeemed.
    public var ssoPasscodeLifetime: Duration = .seconds(60)
    /// How long the desktop has to approve a phone once it redeemed the passcode.
    public var ssoDecisionWindow: Duration = .seconds(120)
    /// The SHA-256 of the token `/metrics` asks for (see ``setMetricsToken(_:)``); `nil` turns
    /// the endpoint off.
    public private(set) var metricsTokenHash: String?

    /// The shortest metrics token accepted.
    public static let minimumMetricsTokenLength = 32

    /// Makes `/metrics` answer scrapers presenting `token` as a bearer token; only its SHA-256
    /// is kept.
    ///
    /// - Throws: ``MetricsTokenError`` when it is shorter than ``minimumMetricsTokenLength``.
    public mutating func setMetricsToken(_ token: String) throws(MetricsTokenError) {
        guard token.count >= Self.minimumMetricsTokenLength, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw MetricsTokenError(reason: "a metrics token is at least \(Self.minimumMetricsTokenLength) visible ASCII characters")
        }
        metricsTokenHash = SecretToken.hash(token)
    }

    /// How long audit events are kept; `nil` keeps them.
    public var auditRetention: Duration? = .seconds(90 * 24 * 3600)
    /// How long the change feed remembers a change of an entity set: long past any push's
    /// coalescing window, short enough that the feed never grows without bound.
    public var changeRetention: Duration = .seconds(7 * 24 * 3600)
    /// How the server sends pushes through APNs (see ``PushSettings``).
    public var push = PushSettings()
    /// What the server's calls to customers' backends may reach and how long and how much they
    /// wait for (default: HTTPS only, no loopback, link-local or metadata addresses, 8 MiB, 15 s).
    public var outbound = OutboundPolicy()
    /// How often the server looks for polled backend sets that are due (each is read at its own
    /// `pollEverySeconds`, for each user whose widgets show it).
    public var backendPollTick: Duration = .seconds(30)
    /// The domain of the universal SSO links of every app that has an Apple app id but names no
    /// link host of its own: another name of this server (iOS opens an app from a link only when
    /// the link's domain is not the page's). With it, universal links — which iOS hands only to
    /// the app the domain's association file names — are the default for such apps; without it,
    /// an app needs its own link host, and until then its links use its custom scheme.
    public var ssoLinkHost: String?
    /// The addresses of reverse proxies whose `X-Forwarded-For` names the client
    /// (``ForwardedSourceMiddleware``); none by default, when the peer is the client.
    public var trustedProxies: Set<String> = []

    /// Whether `text` is an IPv4 or IPv6 address, as ``trustedProxies`` takes them.
    public static func isIPAddress(_ text: String) -> Bool {
        ForwardedSourceMiddleware.isIPAddress(text)
    }
    /// How long an approved phone has to collect its tokens before the approval expires.
    public var ssoReleaseWindow: Duration = .seconds(60)
    /// The shortest time between two polls of a phone waiting for approval (`slow_down` sooner).
    public var ssoPollInterval: Duration = .seconds(5)
    /// Per-user limit on new SSO passcodes (the desktop page asks for one per minute while it
    /// is open): a signed-in user cannot fill the database with them.
    public var ssoIssueRateLimit: RateLimitPolicy = RateLimitPolicy(requestsPerSecond: 0.1, burst: 10)
    /// Per-source-address limit on SSO passcode redemptions: a guesser from one address gets
    /// `429` long before 256 bits are at risk (polls at the interval stay well under it).
    public var ssoRateLimit: RateLimitPolicy = RateLimitPolicy(requestsPerSecond: 0.5, burst: 10)
    /// Per-user limit on item actions (`POST /v1/destinations/…/actions/{action}`):
    /// 30 a minute, 10 at once.
    public var actionRateLimit: RateLimitPolicy = RateLimitPolicy(requestsPerSecond: 0.5, burst: 10)
    /// Per-app-and-address limit on refused item actions and step-up enrolments (a credential
    /// that may not act, a person who may not decide), checked before the refusal is audited:
    /// a public API key cannot turn the audit log into a write primitive.
    public var actionRefusalRateLimit: RateLimitPolicy = RateLimitPolicy(requestsPerSecond: 1, burst: 20)
    /// How long after a sign-in its step-up key may still be enrolled through `PUT
    /// /v1/step-up-key` (a key is normally enrolled with the sign-in itself); later, only a new
    /// sign-in enrols one.
    public var stepUpEnrolmentWindow: Duration = .seconds(300)
    /// How long a grant lives at most, whatever its rotations; extension grants end with their parent.
    public var maxGrantLifetime: Duration = .seconds(90 * 24 * 3600)
    /// How stale an instance may be about changes made on other instances sharing its database:
    /// revoked grants (its revocation list), revoked API keys and changed apps (its caches of
    /// them). A revocation on one instance is refused on every other within this time.
    public var revocationRefreshInterval: Duration = .seconds(1)
    /// How long a DPoP nonce (RFC 9449 §8) names: the token endpoint accepts the current
    /// window's nonce and the one before, so a nonce lasts between one and two windows.
    public var dpopNonceWindow: Duration = .seconds(300)
    /// The cost of password hashing (scrypt).
    public var passwordHasher = PasswordHasher()

    // MARK: - Operations: keys at rest, slow clients, analytics limits

    /// The secret the server keys are sealed under; `nil` generates one beside a SQLite
    /// database (see ``SystemSecret/resolve(file:environment:database:)``) and is an error for
    /// PostgreSQL.
    public var systemSecret: SystemSecret?
    /// How long a connection may send nothing (a half-sent request included) before it is
    /// closed; `nil` never closes one.
    public var idleTimeout: Duration? = .seconds(30)
    /// Rate limits, quota, property caps and retention of `/v1/events`.
    public var analytics = AnalyticsLimits()

    /// Creates a configuration; every parameter but the database has a default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation,
        issuer: String = "http://127.0.0.1:8080",
        graceWindow: Duration = .seconds(5),
        refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600),
        accessTokenLifetime: Duration = .seconds(300),
        maxRequestBodySize: Int = 64 * 1024,
        sweepInterval: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.issuer = issuer
        self.graceWindow = graceWindow
        self.refreshTokenLifetime = refreshTokenLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.maxRequestBodySize = maxRequestBodySize
        self.sweepInterval = sweepInterval
    }
}
