import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TandemBackends
import TandemPlatform

/// Builds the Tandem server: opens and migrates its database, loads (or creates) the server keys and
/// assembles the Hummingbird application with its routes.
///
/// ```swift
/// let configuration = TandemServerConfiguration(database: .sqlite(path: "/tmp/tandem.sqlite"))
/// let app = try await TandemServerApplication.make(configuration: configuration, logger: logger)
/// try await app.runService()   // until SIGINT/SIGTERM
/// ```
public enum TandemServerApplication {
    /// Opens the database at the configured location and builds the application on it.
    ///
    /// - Parameters:
    ///   - configuration: Address, database, issuer, grace window and limits.
    ///   - logger: The server's logger; request outcomes are logged without secrets.
    ///   - clock: What time it is, and what the server waits on: every expiry, lifetime, rate
    ///     limit, sign-in delay, polling interval and maintenance sweep (default the system's
    ///     clock; tests pass a `ManualClock`).
    ///   - onServerRunning: Called with the bound port once the server listens (useful with port 0).
    /// - Returns: An application whose services close the database on shutdown.
    public static func make(
        configuration: TandemServerConfiguration,
        logger: Logger,
        clock: any WallClock = SystemClock(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let database = try await ServerDatabase.open(configuration.database, logger: logger, clock: clock)
        do {
            return try await make(
                configuration: configuration, database: database, logger: logger, clock: clock, onServerRunning: onServerRunning)
        } catch {
            await database.shutdown()
            throw error
        }
    }

    /// Builds the application on a database that is already open and migrated.
    ///
    /// - Parameters:
    ///   - configuration: Address, issuer, grace window and limits (its `database` only says
    ///     where a missing system secret is generated).
    ///   - database: The database to serve; the application closes it on shutdown.
    ///   - logger: The server's logger.
    ///   - clock: What time it is, and what the server waits on (default the system's clock).
    ///   - onServerRunning: Called with the bound port once the server listens.
    public static func make(
        configuration: TandemServerConfiguration,
        database: ServerDatabase,
        logger: Logger,
        clock: any WallClock = SystemClock(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let secret = try configuration.systemSecret ?? SystemSecret.resolve(file: nil, environment: [:], database: configuration.database)
        let keys = try await ServerKeys.load(from: database.serverKeys, secret: secret, clock: clock)
        let audit = AuditLog(storage: database.audit, logger: logger, refusals: AuditSampler(clock: clock))
        var refreshTokens = RefreshTokenService(
            tokens: database.tokens, sealer: try SuccessorSealer(keyMaterial: keys.sealingKey),
            graceWindow: configuration.graceWindow, lifetime: configuration.refreshTokenLifetime,
            maxGrantLifetime: configuration.maxGrantLifetime)
        refreshTokens.audit = audit
        let accessTokens = try await AccessTokenSigner(
            signingKey: keys.signingKey, issuer: configuration.issuer, lifetime: configuration.accessTokenLifetime)
        let revocations = RevocationList(
            tokens: database.tokens, window: configuration.accessTokenLifetime, refreshInterval: configuration.revocationRefreshInterval)

        let context = OAuthEndpointContext(
            refreshTokens: refreshTokens,
            codes: AuthorizationCodeService(
                codes: database.codes, lifetime: configuration.authorizationCodeLifetime,
                refreshTokenLifetime: configuration.refreshTokenLifetime, maxGrantLifetime: configuration.maxGrantLifetime),
            accessTokens: accessTokens,
            clients: ClientDirectory(apps: database.apps, timeToLive: configuration.revocationRefreshInterval, clock: clock),
            accounts: database.accounts,
            apps: database.apps,
            tokens: database.tokens,
            browserSessions: database.browserSessions,
            tokenLimiter: RateLimiter(policy: configuration.tokenRateLimit, clock: clock),
            loginLimiter: RateLimiter(policy: configuration.loginRateLimit, clock: clock),
            signInFailures: database.signInFailures,
            signInThrottle: configuration.signInThrottle,
            accountSignInThrottle: configuration.accountSignInThrottle,
            introspectionLimiter: RateLimiter(policy: configuration.introspectionRateLimit, clock: clock),
            revocations: revocations,
            maxBodySize: configuration.maxRequestBodySize,
            browserSessionLifetime: configuration.browserSessionLifetime,
            secureCookies: configuration.issuer.lowercased().hasPrefix("https://"),
            pages: try WebPages(),
            sso: SSOPasscodeService(
                storage: database.sso, audit: audit, lifetime: configuration.ssoPasscodeLifetime,
                decisionWindow: configuration.ssoDecisionWindow, releaseWindow: configuration.ssoReleaseWindow,
                pollInterval: configuration.ssoPollInterval, clock: clock),
            ssoLimiter: RateLimiter(policy: configuration.ssoRateLimit, clock: clock),
            ssoIssueLimiter: RateLimiter(policy: configuration.ssoIssueRateLimit, clock: clock),
            dpop: DPoPVerifier(proofs: database.dpopProofs, clock: clock),
            dpopNonces: DPoPNonces(sealingKey: keys.sealingKey, window: configuration.dpopNonceWindow, clock: clock),
            ssoLinkHost: configuration.ssoLinkHost,
            stepUpKeys: database.stepUpKeys,
            audit: audit,
            logger: logger,
            clock: clock)

        _ = MetricsEndpoint.registry
        let router = Router(context: TandemRequestContext.self)
        router.add(middleware: MetricsMiddleware())
        if !configuration.trustedProxies.isEmpty {
            router.add(middleware: ForwardedSourceMiddleware(trustedProxies: configuration.trustedProxies))
        }
        HealthEndpoint(storage: database, logger: logger).register(on: router)
        MetricsEndpoint(tokenHash: configuration.metricsTokenHash).register(on: router)
        StaticAssetEndpoint().register(on: router)
        DiscoveryEndpoint(issuer: configuration.issuer, signingKey: keys.signingKey.publicKey, keyID: accessTokens.keyID)
            .register(on: router)
        let passwords = PasswordVerifier(hasher: configuration.passwordHasher, concurrentHashes: configuration.concurrentPasswordHashes)
        AuthorizeEndpoint(context: context, passwords: passwords).register(on: router)
        WebSignInEndpoint(context: context, passwords: passwords).register(on: router)
        AccountEndpoint(context: context, passwords: passwords).register(on: router)
        SSOEndpoint(context: context, passwords: passwords, issuer: configuration.issuer).register(on: router)
        UniversalLinkEndpoint(apps: database.apps, pages: context.pages, defaultLinkHost: configuration.ssoLinkHost, logger: logger)
            .register(on: router)
        TokenEndpoint(context: context).register(on: router)
        RevocationEndpoint(context: context).register(on: router)
        IntrospectionEndpoint(context: context).register(on: router)
        _ = try APNsClient.tlsConfiguration(configuration.push)  // a bad trust root fails the start, not the first push
        let pushDoorbell = PushDoorbell()
        let backendClient = try BackendHTTPClient(policy: configuration.outbound, logger: logger)
        let backendMinter = BackendTokenMinter(
            signingKey: keys.signingKey, issuer: configuration.issuer,
            credentials: BackendCredentials(store: database.backendCredentials, sealingKey: keys.sealingKey))
        let backends = BackendPageReader(
            destinations: database.backendDestinations, accounts: database.accounts, client: backendClient, minter: backendMinter,
            logger: logger, clock: clock)
        let businessData = BusinessDataRoutes(
            configuration: configuration, database: database, accessTokens: accessTokens, revocations: revocations,
            pushDoorbell: pushDoorbell, backends: backends, logger: logger, clock: clock)
        businessData.register(on: router)
        CockpitEndpoint(
            context: context, passwords: passwords, database: database, issuer: configuration.issuer,
            onAPIKeyRevoked: { [authorizer = businessData.authorizer] hash in authorizer.forgetAPIKey(hash: hash) },
            sealingKey: keys.sealingKey, backendClient: backendClient, backendMinter: backendMinter
        ).register(on: router)

        var services: [any Service] = [
            BackendClientService(client: backendClient, logger: logger),
            BackendPollingService(
                poller: BackendPoller(
                    destinations: database.backendDestinations, registry: database.push, changes: database.changes, reader: backends,
                    pushDoorbell: pushDoorbell, logger: logger),
                interval: configuration.backendPollTick, clock: clock),
            StorageMaintenanceService(
                database: database, interval: configuration.sweepInterval, eventRetention: configuration.analytics.retention,
                auditRetention: configuration.auditRetention, changeRetention: configuration.changeRetention, logger: logger,
                clock: clock),
        ]
        if configuration.push.runsSender {
            services.append(PushDispatcher(
                database: database, sealingKey: keys.sealingKey,
                providerTokens: APNsProviderTokens(reuseWindow: configuration.push.providerTokenReuse),
                settings: configuration.push, doorbell: pushDoorbell, logger: logger, clock: clock))
        }
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: configuration.idleTimeout.map(TimeAmount.init))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tandem"),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
