import Logging
import SQLKit
import TandemPlatform

/// The server's database, opened and migrated, with one store per feature over its connector.
///
/// Each endpoint and service takes the stores it needs; all of them run the same statements on
/// SQLite and PostgreSQL through the one `DatabaseConnector`.
///
/// ```swift
/// let database = try await ServerDatabase.open(.sqlite(path: "/tmp/tandem.sqlite"), logger: logger)
/// let user = try await database.accounts.user(named: "ada")
/// await database.shutdown()
/// ```
public struct ServerDatabase: Sendable {
    /// The connector every store's statements run through.
    let connector: any DatabaseConnector
    /// Users, password hashes and the administrator flag.
    let accounts: AccountStore
    /// Browser sessions and the clients they confirmed.
    let browserSessions: BrowserSessionStore
    /// Failed sign-ins per account.
    let signInFailures: SignInFailureStore
    /// Apps, API keys, SSO settings, resource audiences and passcode policies.
    let apps: AppStore
    /// Refresh-token families, rotation, revocation and extension grants.
    let tokens: TokenStore
    /// Authorization codes.
    let codes: AuthorizationCodeStore
    /// The server's sealed keys.
    let serverKeys: ServerKeyStore
    /// Destinations, entity sets and their rows.
    let businessData: BusinessDataStore
    /// Which entity sets changed when.
    let changes: ChangeFeedStore
    /// Each device's push tokens.
    let push: PushRegistryStore
    /// The pushes owed, and those sent per app.
    let pushOutbox: PushOutboxStore
    /// Each app's APNs auth key, sealed.
    let apnsCredentials: APNsCredentialStore
    /// Analytics events and each app's usage.
    let analytics: AnalyticsStore
    /// SSO passcodes.
    let sso: SSOStore
    /// The audit log.
    let audit: AuditStore
    /// The DPoP proofs seen within their window.
    let dpopProofs: DPoPProofStore
    /// Actionable entity sets, decisions and the answers kept for idempotency keys.
    let actions: ActionStore
    /// The step-up keys registered per sign-in.
    let stepUpKeys: StepUpKeyStore
    /// The destinations whose data lives in a customer's backend.
    let backendDestinations: BackendDestinationStore
    /// The technical users of backend destinations, their passwords sealed.
    let backendCredentials: BackendCredentialStore

    /// Wraps a connector whose database is already migrated.
    init(connector: any DatabaseConnector) {
        self.connector = connector
        accounts = AccountStore(connector: connector)
        browserSessions = BrowserSessionStore(connector: connector)
        signInFailures = SignInFailureStore(connector: connector)
        apps = AppStore(connector: connector)
        tokens = TokenStore(connector: connector)
        codes = AuthorizationCodeStore(connector: connector)
        serverKeys = ServerKeyStore(connector: connector)
        businessData = BusinessDataStore(connector: connector)
        changes = ChangeFeedStore(connector: connector)
        push = PushRegistryStore(connector: connector)
        pushOutbox = PushOutboxStore(connector: connector)
        apnsCredentials = APNsCredentialStore(connector: connector)
        analytics = AnalyticsStore(connector: connector)
        sso = SSOStore(connector: connector)
        audit = AuditStore(connector: connector)
        dpopProofs = DPoPProofStore(connector: connector)
        actions = ActionStore(connector: connector)
        stepUpKeys = StepUpKeyStore(connector: connector)
        backendDestinations = BackendDestinationStore(connector: connector)
        backendCredentials = BackendCredentialStore(connector: connector)
    }

    /// Opens the database at `location` with its driver and migrates it to the current schema.
    ///
    /// - Parameters:
    ///   - location: A SQLite file (created with its directory if missing) or a PostgreSQL URL.
    ///   - logger: Receives connection problems and applied migrations.
    ///   - clock: When migrations are recorded as applied (default the system's clock).
    /// - Returns: The database ready to use; call ``shutdown()`` when done.
    public static func open(
        _ location: DatabaseLocation, logger: Logger, clock: any WallClock = SystemClock()
    ) async throws(StorageError) -> ServerDatabase {
        let connector: any DatabaseConnector
        switch location {
        case .sqlite(let path):
            connector = try await SQLiteConnector(path: path, logger: logger)
        case .postgres(let url):
            connector = try await PostgresConnector(url: url, logger: logger)
        }
        do {
            try await Migrator(connector: connector, logger: logger, clock: clock).migrate()
        } catch {
            await connector.shutdown()
            throw error
        }
        return ServerDatabase(connector: connector)
    }

    /// Opens and migrates the database at `location`, runs `body` with it, and shuts it down
    /// whatever `body` does.
    ///
    /// ```swift
    /// let app = try await ServerDatabase.withOpened(location, logger: logger) { database in
    ///     try await ServerAdministration(database: database).createApp(clientID: "demo", name: "Demo", redirectURIs: [])
    /// }
    /// ```
    public static func withOpened<Result>(
        _ location: DatabaseLocation, logger: Logger, _ body: (ServerDatabase) async throws -> Result
    ) async throws -> Result {
        let database = try await open(location, logger: logger)
        do {
            let result = try await body(database)
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }

    /// Runs `SELECT 1`, to prove the database answers.
    func ping() async throws(StorageError) {
        try await connector.perform("ping") { database in try await database.raw("SELECT 1").run() }
    }

    /// Closes every connection. Further calls fail.
    public func shutdown() async {
        await connector.shutdown()
    }
}
