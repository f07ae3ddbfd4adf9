import Foundation
import Logging
import NIOCore
import TandemBackends
import TandemProtocol

extension ServerAdministration {
    /// A token that carries `username` to the backend known as `audience`, as the server makes
    /// for each call to a customer's backend (``BackendTokenMinter``): for an operator checking
    /// that a backend accepts Tandem's tokens before pointing a destination at it. The minting
    /// is written to the audit log (`backend.token_minted`, with the audience, never the token).
    ///
    /// - Parameters:
    ///   - issuer: The `iss` the backend expects: the server's issuer URL, as its discovery
    ///     document at `/.well-known/oauth-authorization-server` says.
    ///   - viaWidget: Mint it as the widgets' grant would have it (with `act`).
    ///   - secret: The system secret the server's signing key is sealed under.
    /// - Returns: The token (valid 5 minutes), to be shown once.
    /// - Throws: ``AdminError/unknownUser(_:)``, ``AdminError/unknownApp(_:)``,
    ///   ``AdminError/invalidArgument(_:)`` for an unusable audience or issuer,
    ///   ``AdminError/serverKeys(_:)``, ``AdminError/storage(_:)``.
    public func mintBackendToken(
        username: String, clientID: String, audience: String, issuer: String, viaWidget: Bool, secret: SystemSecret
    ) async throws(AdminError) -> String {
        let user = try await grantee(username: username, clientID: clientID)
        try Self.check(issuer: issuer)
        let keys = try await serverKeys(secret)
        let now = Timestamp(clock.now)
        let principal = BackendPrincipal(userID: user.id, username: user.username, clientID: clientID, viaWidget: viaWidget)
        let token: String
        do {
            token = try BackendTokenMinter(signingKey: keys.signingKey, issuer: issuer).mint(for: principal, audience: audience, now: now)
        } catch {
            throw .invalidArgument(error.description)
        }
        do {
            try await AuditLog(storage: database.audit, logger: Logger(label: "tandem.admin")).record(
                "backend.token_minted", clientID: clientID, userID: user.id, source: "tandem admin",
                detail: "audience \(audience)" + (viaWidget ? ", as the widgets' grant" : ""), now: now)
        } catch {
            throw .storage(error)
        }
        return token
    }

    /// Saves a backend destination from its JSON document (``BackendDestination``), replacing
    /// the one of that name; validated first, and audited (`destination.saved`). What
    /// `tandem admin destination set` does.
    ///
    /// - Returns: Whether it was new.
    /// - Throws: ``AdminError/invalidArgument(_:)`` for a document that is refused (nothing is
    ///   saved) or a name a stored destination has; ``AdminError/storage(_:)``.
    @discardableResult
    public func saveBackendDestination(document: Data) async throws(AdminError) -> Bool {
        let (destination, created) = try await storeBackendDestination(document: document)
        try await audit("destination.saved", detail: Self.summary(of: destination), now: Timestamp(clock.now))
        return created
    }

    /// ``saveBackendDestination(document:)`` without the audit line, for the cockpit, which
    /// audits as the administrator: the destination saved, and whether it was new.
    func storeBackendDestination(document: Data) async throws(AdminError) -> (BackendDestination, created: Bool) {
        let destination: BackendDestination
        do {
            destination = try BackendDestination.decode(document)
        } catch {
            throw .invalidArgument(error.description)
        }
        let saved: BackendDestinationStore.Saved
        do {
            saved = try await database.backendDestinations.save(destination, now: Timestamp(clock.now))
        } catch {
            throw .storage(error)
        }
        guard saved != .nameTaken else {
            throw .invalidArgument("\(destination.name.debugDescription) is a stored destination (rows written to the server); choose another name")
        }
        return (destination, saved == .created)
    }

    /// "erp (rest, 2 entity sets)": a destination as the audit log names it.
    static func summary(of destination: BackendDestination) -> String {
        "\(destination.name) (\(destination.protocolKind.rawValue), \(destination.entitySets.count) entity sets)"
    }

    /// Stores the technical user a `technical-user` destination is called with, its password
    /// sealed under the server's sealing key (replacing any before); audited as
    /// `destination.credential_set` with the user's name, never the password. What `tandem admin
    /// destination set-credential` does.
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for no such destination, one that does not use
    ///   `technical-user`, or an unusable name or password; ``AdminError/serverKeys(_:)``,
    ///   ``AdminError/storage(_:)``.
    public func setBackendCredential(destination name: String, username: String, password: String, secret: SystemSecret) async throws(AdminError) {
        if let reason = BackendTechnicalUser.check(username: username, password: password) { throw .invalidArgument(reason) }
        let destination: BackendDestination?
        do {
            destination = try await database.backendDestinations.destination(named: name)
        } catch {
            throw .storage(error)
        }
        guard let destination else { throw .invalidArgument("no backend destination named \(name.debugDescription)") }
        guard case .technicalUser = destination.authentication else {
            throw .invalidArgument("\(name.debugDescription) does not use a technical user (its authentication mode is not technical-user)")
        }
        let keys = try await serverKeys(secret)
        let now = Timestamp(clock.now)
        do {
            try await database.backendCredentials.store(
                BackendTechnicalUser(username: username, password: password), destination: name, sealingKey: keys.sealingKey, now: now)
        } catch {
            throw .storage(error)
        }
        try await audit("destination.credential_set", detail: "\(name): technical user \(username)", now: now)
    }

    /// Every backend destination's document (JSON, keys sorted), by name.
    public func backendDestinationDocuments() async throws(AdminError) -> [Data] {
        do {
            return try await database.backendDestinations.destinations().map { $0.document() }
        } catch {
            throw .storage(error)
        }
    }

    /// Removes the backend destination `name` (audited, `destination.removed`).
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    public func removeBackendDestination(name: String) async throws(AdminError) -> Bool {
        let removed: Bool
        do {
            removed = try await database.backendDestinations.remove(named: name)
        } catch {
            throw .storage(error)
        }
        if removed { try await audit("destination.removed", detail: name, now: Timestamp(clock.now)) }
        return removed
    }

    /// The first page of `entitySet` of the backend destination `destination` as `username`'s
    /// app would get it through this server right now — the backend called with the user's
    /// 5-minute token, mapped, or the typed error — for an operator trying a destination
    /// ("fetch the first page as user X"). Nothing is kept; the fetch is audited
    /// (`destination.fetched_as`, naming the user, the set and the status, never a row).
    ///
    /// - Parameters:
    ///   - issuer: The server's issuer URL, which the backend checks as `iss`.
    ///   - limit: Rows to ask for (1…500).
    ///   - outbound: What the call may reach (as `tandem serve`'s backend options set it).
    ///   - secret: The system secret the signing key is sealed under.
    /// - Throws: ``AdminError/unknownUser(_:)``, ``AdminError/unknownApp(_:)``,
    ///   ``AdminError/invalidArgument(_:)`` for no such destination or set, an unusable issuer,
    ///   limit or outbound policy; ``AdminError/serverKeys(_:)``, ``AdminError/storage(_:)``.
    public func fetchBackendPage(
        destination: String, entitySet: String, username: String, clientID: String, issuer: String, limit: Int,
        outbound: OutboundPolicy, secret: SystemSecret
    ) async throws(AdminError) -> BackendTrialPage {
        try Self.check(issuer: issuer)
        let keys = try await serverKeys(secret)
        let client: BackendHTTPClient
        do {
            client = try BackendHTTPClient(policy: outbound, logger: Logger(label: "tandem.admin"))
        } catch {
            throw .invalidArgument(error.description)
        }
        let page: BackendTrialPage
        do {
            page = try await trialPage(
                destination: destination, entitySet: entitySet, username: username, clientID: clientID, limit: limit, client: client,
                minter: BackendTokenMinter(
                    signingKey: keys.signingKey, issuer: issuer,
                    credentials: BackendCredentials(store: database.backendCredentials, sealingKey: keys.sealingKey)),
                logger: Logger(label: "tandem.admin"))
        } catch {
            try? await client.shutdown()
            throw error
        }
        try? await client.shutdown()
        try await audit(
            "destination.fetched_as", detail: "\(destination)/\(entitySet) as \(username) through \(clientID): \(page.status)",
            now: Timestamp(clock.now))
        return page
    }

    /// The first page of `entitySet` of the backend destination `destination` for `username`
    /// through `clientID`, read with `client` and tokens from `minter` by a reader of its own
    /// (nothing is kept): what ``fetchBackendPage(destination:entitySet:username:clientID:issuer:limit:outbound:secret:)``
    /// and the cockpit's "fetch the first page as" show. Not audited: each caller audits as itself.
    ///
    /// - Throws: ``AdminError/unknownUser(_:)``, ``AdminError/unknownApp(_:)``,
    ///   ``AdminError/invalidArgument(_:)`` for no such destination or set or a limit out of
    ///   range, ``AdminError/storage(_:)``.
    func trialPage(
        destination: String, entitySet: String, username: String, clientID: String, limit: Int, client: BackendHTTPClient,
        minter: BackendTokenMinter, logger: Logger
    ) async throws(AdminError) -> BackendTrialPage {
        let user = try await grantee(username: username, clientID: clientID)
        guard (1...PageRequest.maximumLimit).contains(limit) else { throw .invalidArgument("the limit must be 1 to \(PageRequest.maximumLimit)") }
        let configured: ConfiguredBackendDestination?
        do {
            configured = try await database.backendDestinations.configured(named: destination)
        } catch {
            throw .storage(error)
        }
        guard let configured else { throw .invalidArgument("no backend destination named \(destination.debugDescription)") }
        guard let set = configured.destination.entitySets.first(where: { $0.name == entitySet }) else {
            throw .invalidArgument("\(destination.debugDescription) has no entity set named \(entitySet.debugDescription)")
        }
        let reader = BackendPageReader(
            destinations: database.backendDestinations, accounts: database.accounts, client: client, minter: minter, logger: logger, clock: clock)
        let caller = RequestPrincipal(
            clientID: clientID, subject: user.id, scopes: [OAuthScope.dataRead], audience: [OAuthScope.apiAudience], credential: .bearer)
        do {
            let answer = try await reader.page(of: configured, entitySet: set, for: caller, paging: PageRequest(limit: limit, offset: 0))
            return BackendTrialPage(status: 200, body: String(buffer: answer.body))
        } catch {
            return BackendTrialPage(status: Int(error.status.code), body: error.bodyJSON)
        }
    }

    /// The server's keys, opened with the system secret.
    private func serverKeys(_ secret: SystemSecret) async throws(AdminError) -> ServerKeys {
        do {
            return try await ServerKeys.load(from: database.serverKeys, secret: secret, clock: clock)
        } catch {
            throw .serverKeys(error)
        }
    }

    /// Refuses an issuer that is not the server's http(s) URL (the `iss` a backend checks).
    private static func check(issuer: String) throws(AdminError) {
        guard let url = URL(string: issuer), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw .invalidArgument("the issuer must be the server's http(s) URL")
        }
    }

    /// Records an administrator's change made from the command line.
    private func audit(_ kind: String, detail: String, now: Timestamp) async throws(AdminError) {
        do {
            try await AuditLog(storage: database.audit, logger: Logger(label: "tandem.admin"))
                .record(kind, clientID: nil, userID: nil, source: "tandem admin", detail: detail, now: now)
        } catch {
            throw .storage(error)
        }
    }
}
