import Hummingbird
import Logging
import TandemPlatform

/// The `/v1` routes: business data (``ResourceEndpoint``, and resource servers' writes:
/// ``EntitySetWriteEndpoint``), item actions (``ItemActionEndpoint``, ``StepUpKeyEndpoint``), the push registry (``PushRegistrationEndpoint``), app configuration
/// (``AppConfigurationEndpoint``), analytics ingestion (``EventsEndpoint``) and its summary
/// (``AnalyticsSummaryEndpoint``), sharing one ``RequestAuthorizer`` and its caches.
struct BusinessDataRoutes: Sendable {
    /// Checks the protected routes' credentials.
    let authorizer: RequestAuthorizer
    /// The server's storage.
    let database: ServerDatabase
    /// The issuer URL, for the configuration document.
    let issuer: String
    /// The largest request body accepted.
    let maxBodySize: Int
    /// The largest entity set a resource server may write in one request.
    let maxEntitySetSize: Int
    /// What `/v1/events` accepts.
    let analytics: AnalyticsLimits
    /// The server's logger.
    let logger: Logger
    /// What time it is, for the routes and their shared authorizer.
    let clock: any WallClock
    /// Rung by writes that change an entity set.
    let pushDoorbell: PushDoorbell
    /// The per-user limit on item actions.
    let actionLimiter: RateLimiter
    /// How refused actions and enrolments are limited (per app and address) and audited (sampled).
    let actionRefusals: ActionRefusals
    /// How long after a sign-in a step-up key may still be enrolled through `PUT /v1/step-up-key`.
    let stepUpEnrolmentWindow: Duration
    /// The universal SSO links' domain of apps with an Apple app id and none of their own.
    let ssoLinkHost: String?
    /// Reads the destinations whose data lives in a customer's backend; nil: none are read.
    let backends: BackendPageReader?

    /// The routes of a server with `configuration`, its `storage`, its access-token signer, its
    /// revocation list and its clock.
    init(
        configuration: TandemServerConfiguration, database: ServerDatabase, accessTokens: AccessTokenSigner,
        revocations: RevocationList, pushDoorbell: PushDoorbell, backends: BackendPageReader? = nil, logger: Logger, clock: any WallClock
    ) {
        self.pushDoorbell = pushDoorbell
        self.backends = backends
        actionLimiter = RateLimiter(policy: configuration.actionRateLimit, clock: clock)
        actionRefusals = ActionRefusals(
            limiter: RateLimiter(policy: configuration.actionRefusalRateLimit, clock: clock),
            audit: AuditLog(storage: database.audit, logger: logger, refusals: AuditSampler(clock: clock)), logger: logger)
        stepUpEnrolmentWindow = configuration.stepUpEnrolmentWindow
        ssoLinkHost = configuration.ssoLinkHost
        authorizer = RequestAuthorizer(
            accessTokens: accessTokens, apps: database.apps, apiKeyCacheLifetime: configuration.revocationRefreshInterval,
            revocations: revocations, clock: clock, dpop: DPoPVerifier(proofs: database.dpopProofs, clock: clock))
        self.clock = clock
        self.database = database
        issuer = configuration.issuer
        maxBodySize = configuration.maxRequestBodySize
        maxEntitySetSize = configuration.maxEntitySetSize
        analytics = configuration.analytics
        self.logger = logger
    }

    /// Adds every route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        ResourceEndpoint(authorizer: authorizer, storage: database.businessData, logger: logger, clock: clock, backends: backends)
            .register(on: router)
        EntitySetWriteEndpoint(
            apps: database.apps, storage: database.businessData, audit: AuditLog(storage: database.audit, logger: logger),
            maxBodySize: maxEntitySetSize, logger: logger, clock: clock, pushDoorbell: pushDoorbell
        ).register(on: router)
        if let backends {
            BackendChangeEndpoint(
                apps: database.apps, accounts: database.accounts, changes: database.changes, backends: backends,
                audit: AuditLog(storage: database.audit, logger: logger), logger: logger, clock: clock, pushDoorbell: pushDoorbell
            ).register(on: router)
        }
        PushRegistrationEndpoint(
            authorizer: authorizer, registry: database.push, maxBodySize: maxBodySize, logger: logger, clock: clock
        ).register(on: router)
        let audit = AuditLog(storage: database.audit, logger: logger)
        ItemActionEndpoint(
            authorizer: authorizer, database: database, audit: audit, refusals: actionRefusals, limiter: actionLimiter, issuer: issuer,
            maxBodySize: maxBodySize, logger: logger, clock: clock, pushDoorbell: pushDoorbell, backends: backends,
            backendActions: backends.map { BackendActionSender(client: $0.client, minter: $0.minter, logger: logger) }
        ).register(on: router)
        StepUpKeyEndpoint(
            authorizer: authorizer, keys: database.stepUpKeys, tokens: database.tokens, audit: audit, refusals: actionRefusals,
            enrolmentWindow: stepUpEnrolmentWindow, issuer: issuer, maxBodySize: maxBodySize, logger: logger, clock: clock
        ).register(on: router)
        AppConfigurationEndpoint(
            issuer: issuer, apps: database.apps, actions: database.actions, defaultLinkHost: ssoLinkHost, defaultPasscodePolicy: .default,
            logger: logger).register(on: router)
        EventsEndpoint(authorizer: authorizer, storage: database.analytics, maxBodySize: maxBodySize, limits: analytics, logger: logger, clock: clock).register(on: router)
        AnalyticsSummaryEndpoint(authorizer: authorizer, storage: database.analytics, logger: logger, clock: clock).register(on: router)
    }
}
