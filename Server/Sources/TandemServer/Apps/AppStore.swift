import Foundation
import SQLKit
import TandemProtocol

/// Registered apps and what belongs to each: API keys (their hashes), SSO settings, the
/// audiences it serves as a resource server, and its passcode policy.
///
/// ```swift
/// try await database.apps.createApp(app)
/// let key = try await database.apps.createAPIKey(clientID: app.clientID, keyHash: SecretToken.hash(secret), now: Timestamp(clock.now))
/// ```
struct AppStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Registers an app.
    ///
    /// - Throws: ``StorageError/alreadyExists(_:)`` when the client id is taken.
    func createApp(_ app: AppRecord) async throws(StorageError) {
        let redirectURIs = String(decoding: (try? JSONEncoder().encode(app.redirectURIs)) ?? Data("[]".utf8), as: UTF8.self)
        let inserted = try await connector.perform("creating an app") { database in
            try await database.raw("""
                INSERT INTO apps (client_id, name, redirect_uris, url_scheme, security_mode, sso_enabled, sso_confirmation,
                                  lock_screen_redaction, dpop_required, created_at)
                VALUES (\(bind: app.clientID), \(bind: app.name), \(bind: redirectURIs), \(bind: app.urlScheme),
                        \(bind: app.securityMode.rawValue), \(bind: Int64(app.ssoEnabled ? 1 : 0)), \(bind: Int64(app.ssoConfirmation ? 1 : 0)),
                        \(bind: Int64(app.lockScreenRedaction ? 1 : 0)), \(bind: Int64(app.dpopRequired ? 1 : 0)),
                        \(bind: app.createdAt.milliseconds))
                ON CONFLICT (client_id) DO NOTHING RETURNING client_id
                """).all().count
        }
        guard inserted == 1 else { throw .alreadyExists("app \(app.clientID.debugDescription)") }
    }

    /// The app with this client id, or `nil`.
    func app(clientID: String) async throws(StorageError) -> AppRecord? {
        let row = try await connector.perform("reading an app") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.appColumns) FROM apps WHERE client_id = \(bind: clientID)").first()
        }
        return try row.map(Self.appRecord)
    }

    /// Every app, by client id.
    func apps() async throws(StorageError) -> [AppRecord] {
        let rows = try await connector.perform("listing apps") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.appColumns) FROM apps ORDER BY client_id").all()
        }
        var apps: [AppRecord] = []
        for row in rows { apps.append(try Self.appRecord(row)) }
        return apps
    }

    /// The columns ``appRecord(_:)`` reads.
    static let appColumns =
        "client_id, name, redirect_uris, url_scheme, security_mode, sso_enabled, sso_confirmation, lock_screen_redaction, sso_link_host, "
            + "apple_app_id, dpop_required, created_at"

    /// An `apps` row as a record; a row that does not decode is ``StorageError/corruptRecord(_:)``.
    static func appRecord(_ row: any SQLRow) throws(StorageError) -> AppRecord {
        let clientID = (try? row.decode(column: "client_id", as: String.self)) ?? "?"
        do {
            let modeText = try row.decode(column: "security_mode", as: String.self)
            guard let mode = SecurityMode(rawValue: modeText) else { throw StorageError.corruptRecord("app \(clientID) has security mode \(modeText)") }
            let redirectText = try row.decode(column: "redirect_uris", as: String.self)
            return AppRecord(
                clientID: clientID,
                name: try row.decode(column: "name", as: String.self),
                redirectURIs: try JSONDecoder().decode([String].self, from: Data(redirectText.utf8)),
                urlScheme: try row.decode(column: "url_scheme", as: String?.self),
                securityMode: mode,
                ssoEnabled: try row.decode(column: "sso_enabled", as: Int64.self) != 0,
                ssoConfirmation: try row.decode(column: "sso_confirmation", as: Int64.self) != 0,
                lockScreenRedaction: try row.decode(column: "lock_screen_redaction", as: Int64.self) != 0,
                dpopRequired: try row.decode(column: "dpop_required", as: Int64.self) != 0,
                ssoLinkHost: try row.decode(column: "sso_link_host", as: String?.self),
                appleAppID: try row.decode(column: "apple_app_id", as: String?.self),
                createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
        } catch let error as StorageError {
            throw error
        } catch {
            throw .corruptRecord("app \(clientID): \(error)")
        }
    }

    /// Turns cross-context SSO and its desktop confirmation on or off for an app.
    ///
    /// - Returns: Whether the app exists.
    func setSSO(clientID: String, enabled: Bool, confirmation: Bool) async throws(StorageError) -> Bool {
        try await connector.perform("changing SSO settings") { database in
            try await database.raw("""
                UPDATE apps SET sso_enabled = \(bind: Int64(enabled ? 1 : 0)), sso_confirmation = \(bind: Int64(confirmation ? 1 : 0))
                WHERE client_id = \(bind: clientID) RETURNING client_id
                """).first() != nil
        }
    }

    /// Sets (or, with `nil`, clears) the app's universal SSO links. The values are checked by
    /// the caller (`ServerAdministration/setUniversalLinks(clientID:host:appleAppID:issuerHost:defaultHost:)`).
    ///
    /// - Returns: Whether the app exists.
    func setUniversalLinks(clientID: String, host: String?, appleAppID: String?) async throws(StorageError) -> Bool {
        try await connector.perform("changing universal links") { database in
            try await database.raw("""
                UPDATE apps SET sso_link_host = \(bind: host), apple_app_id = \(bind: appleAppID)
                WHERE client_id = \(bind: clientID) RETURNING client_id
                """).first() != nil
        }
    }

    /// Turns the Lock Screen redaction of an app's widgets on or off.
    ///
    /// - Returns: Whether the app exists.
    func setLockScreenRedaction(clientID: String, enabled: Bool) async throws(StorageError) -> Bool {
        try await connector.perform("changing the lock screen policy") { database in
            try await database.raw("""
                UPDATE apps SET lock_screen_redaction = \(bind: Int64(enabled ? 1 : 0))
                WHERE client_id = \(bind: clientID) RETURNING client_id
                """).first() != nil
        }
    }

    /// Turns the DPoP requirement of an app's token requests on or off.
    ///
    /// - Returns: Whether the app exists.
    func setDPoPRequired(clientID: String, required: Bool) async throws(StorageError) -> Bool {
        try await connector.perform("changing the DPoP policy") { database in
            try await database.raw("""
                UPDATE apps SET dpop_required = \(bind: Int64(required ? 1 : 0))
                WHERE client_id = \(bind: clientID) RETURNING client_id
                """).first() != nil
        }
    }

    // MARK: - API keys

    /// Stores a new API key's hash for an app.
    ///
    /// - Parameters:
    ///   - clientID: The app; it must exist.
    ///   - keyHash: The key's hash from ``SecretToken/hash(_:)``.
    ///   - now: The creation time.
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func createAPIKey(clientID: String, keyHash: String, now: Timestamp) async throws(StorageError) -> APIKeyRecord {
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        let key = APIKeyRecord(id: UUID().uuidString.lowercased(), clientID: clientID, keyHash: keyHash, createdAt: now, revokedAt: nil)
        try await connector.perform("creating an API key") { database in
            try await database.raw("""
                INSERT INTO api_keys (id, client_id, key_hash, created_at)
                VALUES (\(bind: key.id), \(bind: clientID), \(bind: keyHash), \(bind: now.milliseconds))
                """).run()
        }
        return key
    }

    /// The API key with this hash, or `nil`.
    func apiKey(hash: String) async throws(StorageError) -> APIKeyRecord? {
        try await connector.perform("reading an API key") { database in
            try await database.raw("SELECT id, client_id, key_hash, created_at, revoked_at FROM api_keys WHERE key_hash = \(bind: hash)")
                .first()
                .map(Self.apiKeyRecord)
        }
    }

    /// An app's API keys (never the keys themselves), newest first.
    func apiKeys(clientID: String) async throws(StorageError) -> [APIKeyRecord] {
        try await connector.perform("listing API keys") { database in
            try await database.raw("""
                SELECT id, client_id, key_hash, created_at, revoked_at FROM api_keys WHERE client_id = \(bind: clientID)
                ORDER BY created_at DESC, id
                """).all().map(Self.apiKeyRecord)
        }
    }

    /// Revokes the key `id` of `clientID`, if it is not already.
    ///
    /// - Returns: The key's stored hash when this call revoked it, else `nil`.
    ///
    /// A conditional update on `revoked_at IS NULL`.
    func revokeAPIKey(id: String, clientID: String, now: Timestamp) async throws(StorageError) -> String? {
        try await connector.perform("revoking an API key") { database in
            try await database.raw("""
                UPDATE api_keys SET revoked_at = \(bind: now.milliseconds)
                WHERE id = \(bind: id) AND client_id = \(bind: clientID) AND revoked_at IS NULL RETURNING key_hash
                """).first()?.decode(column: "key_hash", as: String.self)
        }
    }

    /// An `api_keys` row (`id, client_id, key_hash, created_at, revoked_at`) as a record.
    static func apiKeyRecord(_ row: any SQLRow) throws -> APIKeyRecord {
        APIKeyRecord(
            id: try row.decode(column: "id", as: String.self),
            clientID: try row.decode(column: "client_id", as: String.self),
            keyHash: try row.decode(column: "key_hash", as: String.self),
            createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(Timestamp.init(milliseconds:)))
    }

    // MARK: - Resource servers

    /// Registers an app as a resource server for `audiences`, or (with `nil`) unregisters it.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    ///
    /// Stores the audiences space-separated in `apps.resource_audiences` (`NULL` for none).
    func setResourceAudiences(_ audiences: Set<String>?, clientID: String) async throws(StorageError) {
        let text = audiences.flatMap { $0.isEmpty ? nil : $0.sorted().joined(separator: " ") }
        let updated = try await connector.perform("registering a resource server") { database in
            try await database.raw("""
                UPDATE apps SET resource_audiences = \(bind: text) WHERE client_id = \(bind: clientID) RETURNING client_id
                """).all().count
        }
        guard updated == 1 else { throw .notFound("app \(clientID.debugDescription)") }
    }

    /// The audiences an app serves as a resource server, or `nil` when it is none (the default).
    func resourceAudiences(clientID: String) async throws(StorageError) -> Set<String>? {
        try await connector.perform("reading a resource server") { database in
            guard let row = try await database.raw("SELECT resource_audiences FROM apps WHERE client_id = \(bind: clientID)").first(),
                  let text = try row.decode(column: "resource_audiences", as: String?.self)
            else { return nil }
            let audiences = Set(text.split(separator: " ").map(String.init))
            return audiences.isEmpty ? nil : audiences
        }
    }

    // MARK: - Passcode policy

    /// The passcode policy stored for an app, or `nil` when it uses the server's default.
    func passcodePolicy(clientID: String) async throws(StorageError) -> PasscodePolicyDocument? {
        try await policyDocument(PasscodePolicyDocument.self, in: .passcode, clientID: clientID)
    }

    /// Stores (or replaces) an app's passcode policy.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setPasscodePolicy(_ policy: PasscodePolicyDocument, clientID: String, now: Timestamp) async throws(StorageError) {
        try await storePolicyDocument(policy, in: .passcode, clientID: clientID, now: now)
    }
}
