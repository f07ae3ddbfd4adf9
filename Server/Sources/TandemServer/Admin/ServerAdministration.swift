import Foundation
import TandemProtocol
import TandemPlatform

/// The operations behind `tandem admin`: users, apps, API keys and, until the authorization
/// endpoint exists, refresh tokens issued directly.
///
/// Secrets are returned once to the caller and stored only hashed.
///
/// ```swift
/// let admin = ServerAdministration(database: database)
/// try await admin.createUser(username: "ada", password: "correct horse battery staple")
/// let key = try await admin.createAPIKey(clientID: "widget-demo")   // print once
/// ```
public struct ServerAdministration: Sendable {
    /// The database administered.
    let database: ServerDatabase
    /// Hashes new passwords.
    public let passwordHasher: PasswordHasher
    /// What time it is: the creation time of users, apps, keys and grants, and where grants'
    /// lifetimes start.
    public let clock: any WallClock

    /// Creates the administration for `database`.
    ///
    /// - Parameters:
    ///   - database: The database administered.
    ///   - passwordHasher: Hashes new passwords (default: the server's cost).
    ///   - clock: What time it is (default the system's).
    public init(database: ServerDatabase, passwordHasher: PasswordHasher = PasswordHasher(), clock: any WallClock = SystemClock()) {
        self.database = database
        self.passwordHasher = passwordHasher
        self.clock = clock
    }

    /// Creates a user with a scrypt-hashed password.
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty username or a password under 8
    ///   characters; ``AdminError/storage(_:)`` when the username is taken.
    @discardableResult
    public func createUser(username: String, password: String) async throws(AdminError) -> UserRecord {
        guard !username.isEmpty, username.count <= 200, !username.contains(where: \.isWhitespace) else {
            throw .invalidArgument("the username must be 1 to 200 characters without spaces")
        }
        guard password.count >= 8 else { throw .invalidArgument("the password must have at least 8 characters") }
        let hash: String
        do { hash = try passwordHasher.hash(password) } catch { throw .password(error) }
        do {
            return try await database.accounts.createUser(username: username, passwordHash: hash, now: Timestamp(clock.now))
        } catch {
            throw .storage(error)
        }
    }

    /// Registers an app.
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty client id or name or a redirect
    ///   URI without a scheme; ``AdminError/storage(_:)`` when the client id is taken.
    @discardableResult
    public func createApp(
        clientID: String, name: String, redirectURIs: [String], urlScheme: String?,
        securityMode: SecurityMode, ssoEnabled: Bool, dpopRequired: Bool = false
    ) async throws(AdminError) -> AppRecord {
        guard AppIdentifierRules.isValidClientID(clientID) else {
            throw .invalidArgument("the client id must be 1 to \(AppIdentifierRules.maximumClientIDLength) visible ASCII characters, without spaces")
        }
        if let urlScheme, !AppIdentifierRules.isValidURLScheme(urlScheme) {
            throw .invalidArgument(
                "the URL scheme \(urlScheme.debugDescription) is not the app's own: a lowercase letter, then lowercase letters, digits, + - . "
                    + "(at most \(AppIdentifierRules.maximumURLSchemeLength)), and not a scheme of the web or the system such as https")
        }
        guard !name.isEmpty else { throw .invalidArgument("the app needs a name") }
        for uri in redirectURIs where URLComponents(string: uri)?.scheme == nil {
            throw .invalidArgument("redirect URI \(uri.debugDescription) is not an absolute URI")
        }
        let app = AppRecord(
            clientID: clientID, name: name, redirectURIs: redirectURIs, urlScheme: urlScheme,
            securityMode: securityMode, ssoEnabled: ssoEnabled, dpopRequired: dpopRequired, createdAt: Timestamp(clock.now))
        do {
            try await database.apps.createApp(app)
        } catch {
            throw .storage(error)
        }
        return app
    }

    /// Sets the app's universal SSO links: its Apple app id (`TEAMID.bundle`) and, unless the
    /// server's own link host serves it (`defaultHost`, ``TandemServerConfiguration/ssoLinkHost``),
    /// its associated domain `host`; both `nil` go back to the custom scheme.
    ///
    /// - Parameters:
    ///   - issuerHost: The host of the server's own pages. A link host equal to it is refused:
    ///     iOS opens an app with a universal link only when the link leads to another domain than
    ///     the page it is on, so the SSO phone page's "Next" would stay in Safari.
    ///   - defaultHost: The server's link host for apps without their own; with one, an Apple app
    ///     id alone is enough.
    /// - Returns: The links the app's SSO onboarding now uses, `nil` for the custom scheme.
    /// - Throws: ``AdminError/invalidArgument(_:)`` for a host or an app id the rules of
    ///   `AppIdentifierRules` refuse, a host without an app id, an app id without any host, or the
    ///   issuer's host; ``AdminError/unknownApp(_:)``. Nothing is stored then.
    @discardableResult
    public func setUniversalLinks(
        clientID: String, host: String?, appleAppID: String?, issuerHost: String?, defaultHost: String? = nil
    ) async throws(AdminError) -> AppRecord.UniversalLinks? {
        if let appleAppID {
            // The association file lists the link's path as a pattern, in which `*` and `?`
            // would be wildcards: only a client id of unreserved characters goes in it as is.
            guard FormEncoding.escape(clientID) == clientID else {
                throw .invalidArgument("universal links need a client id of letters, digits and - . _ ~ only (\(clientID.debugDescription) has others)")
            }
            guard AppIdentifierRules.isValidAppleAppID(appleAppID) else {
                throw .invalidArgument(
                    "the Apple app id \(appleAppID.debugDescription) is not TEAMID.bundle: a ten-character team id (A-Z, 0-9), a dot "
                        + "and the bundle id")
            }
            guard host != nil || defaultHost != nil else {
                throw .invalidArgument("universal links need a link host: this app's, or the server's (tandem serve --sso-link-host)")
            }
        } else if host != nil {
            throw .invalidArgument("universal links need the Apple app id as well as the link host")
        }
        if let host {
            try Self.checkLinkHost(host, issuerHost: issuerHost)
        }
        let found: Bool
        do {
            found = try await database.apps.setUniversalLinks(clientID: clientID, host: host, appleAppID: appleAppID)
        } catch {
            throw .storage(error)
        }
        guard found else { throw .unknownApp(clientID) }
        guard let appleAppID, let linkHost = host ?? defaultHost else { return nil }
        return AppRecord.UniversalLinks(host: linkHost, appleAppID: appleAppID)
    }

    /// Checks that `host` may carry universal SSO links of a server whose pages are on
    /// `issuerHost`: a domain name (`AppIdentifierRules`), and not the pages' own.
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` saying which.
    public static func checkLinkHost(_ host: String, issuerHost: String?) throws(AdminError) {
        guard AppIdentifierRules.isValidLinkHost(host) else {
            throw .invalidArgument(
                "the link host \(host.debugDescription) is not a domain name: lowercase letters, digits and inner hyphens, "
                    + "at least two labels, no scheme, port or path")
        }
        guard host != issuerHost?.lowercased() else {
            throw .invalidArgument(
                "the link host must be another domain than the server's pages (\(host)): iOS does not open an app from a link to "
                    + "the domain of the page it is on")
        }
    }

    /// Creates an API key for an app.
    ///
    /// - Returns: The key (`tdk_…`), which exists nowhere else: only its hash is stored.
    public func createAPIKey(clientID: String) async throws(AdminError) -> String {
        let key = SecretToken.generate(.apiKey)
        do {
            _ = try await database.apps.createAPIKey(clientID: clientID, keyHash: SecretToken.hash(key), now: Timestamp(clock.now))
        } catch .notFound {
            throw .unknownApp(clientID)
        } catch {
            throw .storage(error)
        }
        return key
    }

    /// Issues a refresh token (a new family) for a user and an app.
    ///
    /// - Parameters:
    ///   - username: The user the grant acts for.
    ///   - clientID: The app it is issued to.
    ///   - scope: The granted scope.
    ///   - audience: The access tokens' audience.
    ///   - secret: The system secret that unseals the server's keys (the grant's first token is
    ///     issued as the server would, with its sealing key).
    /// - Returns: The token, to be shown once.
    public func issueRefreshToken(
        username: String, clientID: String, scope: String, audience: String, secret: SystemSecret
    ) async throws(AdminError) -> RefreshToken {
        let user = try await grantee(username: username, clientID: clientID)
        let keys: ServerKeys
        do {
            keys = try await ServerKeys.load(from: database.serverKeys, secret: secret, clock: clock)
        } catch {
            throw .serverKeys(error)
        }
        do {
            let service = RefreshTokenService(tokens: database.tokens, sealer: try SuccessorSealer(keyMaterial: keys.sealingKey))
            return try await service.issue(userID: user.id, clientID: clientID, scope: scope, audience: audience, now: Timestamp(clock.now))
        } catch {
            throw .token(error)
        }
    }

    /// Issues `count` independent grants (a family and a first refresh token each) in batched
    /// transactions, for load tests that need one unused token per request.
    ///
    /// - Parameter dpopJKT: The thumbprint of a DPoP key to bind every grant to (RFC 9449), as a
    ///   load test of bound refreshes needs; `nil` for bearer grants.
    /// - Returns: The tokens, to be shown once.
    public func issueRefreshTokens(
        username: String, clientID: String, scope: String, audience: String, count: Int,
        lifetime: Duration = .seconds(30 * 24 * 3600), dpopJKT: String? = nil
    ) async throws(AdminError) -> [String] {
        if let dpopJKT, Base64URL.decode(dpopJKT)?.count != 32 {
            throw .invalidArgument("a DPoP key thumbprint is the base64url of 32 bytes (RFC 7638 SHA-256)")
        }
        let user = try await grantee(username: username, clientID: clientID)
        let now = Timestamp(clock.now)
        var tokens: [String] = []
        tokens.reserveCapacity(count)
        var batch: [FirstRefreshToken] = []
        for index in 0..<count {
            let token = SecretToken.generate(.refreshToken)
            tokens.append(token)
            batch.append(FirstRefreshToken(
                family: TokenFamily(
                    id: UUID().uuidString.lowercased(), clientID: clientID, userID: user.id, scope: scope, audience: audience,
                    createdAt: now, revokedAt: nil, dpopJKT: dpopJKT),
                tokenHash: SecretToken.hash(token), expiresAt: now.adding(lifetime)))
            if batch.count == 500 || index == count - 1 {
                do {
                    try await database.tokens.createFamilies(batch)
                } catch {
                    throw .storage(error)
                }
                batch.removeAll(keepingCapacity: true)
            }
        }
        return tokens
    }

    /// Makes the user with `username` a cockpit administrator, or not.
    ///
    /// - Returns: Whether such a user exists.
    @discardableResult
    public func setAdmin(username: String, admin: Bool) async throws(AdminError) -> Bool {
        do {
            return try await database.accounts.setAdmin(username: username, admin: admin)
        } catch {
            throw .storage(error)
        }
    }

    /// The newest `limit` audit events, newest first, only `clientID`'s when given.
    public func auditEvents(clientID: String?, limit: Int) async throws(AdminError) -> [AuditEvent] {
        do {
            return try await database.audit.auditEvents(clientID: clientID, limit: limit)
        } catch {
            throw .storage(error)
        }
    }

    /// The user a grant is for, after checking that both the user and the app exist.
    func grantee(username: String, clientID: String) async throws(AdminError) -> UserRecord {
        let user: UserRecord?
        let app: AppRecord?
        do {
            user = try await database.accounts.user(named: username)
            app = try await database.apps.app(clientID: clientID)
        } catch {
            throw .storage(error)
        }
        guard let user else { throw .unknownUser(username) }
        guard app != nil else { throw .unknownApp(clientID) }
        return user
    }
}
