import Foundation
import SQLKit

/// ``ServerStorage`` over SQLKit: the same statements on SQLite and PostgreSQL, through a
/// ``DatabaseConnector``.
///
/// ```swift
/// let storage = try await SQLServerStorage.open(.sqlite(path: "/tmp/tandem.sqlite"), logger: logger)
/// try await storage.ping()
/// ```
public struct SQLServerStorage: ServerStorage {
    /// The connector the statements run through (exposed so tests and tools can inspect rows).
    public let connector: any DatabaseConnector

    /// Wraps a connector. Call ``Migrator/migrate()`` first, or use ``open(_:logger:clock:)``.
    public init(connector: any DatabaseConnector) {
        self.connector = connector
    }

    // MARK: - Users

    /// Runs `SELECT 1`.
    public func ping() async throws(StorageError) {
        try await perform("ping") { database in try await database.raw("SELECT 1").run() }
    }

    /// Inserts the user; `ON CONFLICT DO NOTHING` turns a taken username into ``StorageError/alreadyExists(_:)``.
    public func createUser(username: String, passwordHash: String, now: Timestamp) async throws(StorageError) -> UserRecord {
        let user = UserRecord(id: UUID().uuidString.lowercased(), username: username, passwordHash: passwordHash, createdAt: now)
        let inserted = try await perform("creating a user") { database in
            try await database.raw("""
                INSERT INTO users (id, username, password_hash, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: user.passwordHash), \(bind: now.milliseconds))
                ON CONFLICT (username) DO NOTHING RETURNING id
                """).all().count
        }
        guard inserted == 1 else { throw .alreadyExists("user \(username.debugDescription)") }
        return user
    }

    /// Looks the user up by username.
    public func user(named username: String) async throws(StorageError) -> UserRecord? {
        try await perform("reading a user") { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users WHERE username = \(bind: username)")
                .first()
                .map(Self.userRecord)
        }
    }

    /// A `users` row (`id, username, password_hash, created_at`) as a record.
    static func userRecord(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decode(column: "id", as: String.self),
            username: try row.decode(column: "username", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
    }

    // MARK: - Apps and API keys

    /// Inserts the app, its redirect URIs as a JSON array; a taken client id is ``StorageError/alreadyExists(_:)``.
    public func createApp(_ app: AppRecord) async throws(StorageError) {
        let redirectURIs = String(decoding: (try? JSONEncoder().encode(app.redirectURIs)) ?? Data("[]".utf8), as: UTF8.self)
        let inserted = try await perform("creating an app") { database in
            try await database.raw("""
                INSERT INTO apps (client_id, name, redirect_uris, url_scheme, security_mode, sso_enabled, sso_confirmation, created_at)
                VALUES (\(bind: app.clientID), \(bind: app.name), \(bind: redirectURIs), \(bind: app.urlScheme),
                        \(bind: app.securityMode.rawValue), \(bind: Int64(app.ssoEnabled ? 1 : 0)), \(bind: Int64(app.ssoConfirmation ? 1 : 0)),
                        \(bind: app.createdAt.milliseconds))
                ON CONFLICT (client_id) DO NOTHING RETURNING client_id
                """).all().count
        }
        guard inserted == 1 else { throw .alreadyExists("app \(app.clientID.debugDescription)") }
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

    /// The columns ``appRecord(_:)`` reads.
    static let appColumns = "client_id, name, redirect_uris, url_scheme, security_mode, sso_enabled, sso_confirmation, created_at"

    /// Looks the app up by client id.
    public func app(clientID: String) async throws(StorageError) -> AppRecord? {
        let row = try await perform("reading an app") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.appColumns) FROM apps WHERE client_id = \(bind: clientID)").first()
        }
        return try row.map(Self.appRecord)
    }

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
                createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
        } catch let error as StorageError {
            throw error
        } catch {
            throw .corruptRecord("app \(clientID): \(error)")
        }
    }

    /// Inserts the key's hash for an existing app.
    public func createAPIKey(clientID: String, keyHash: String, now: Timestamp) async throws(StorageError) -> APIKeyRecord {
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        let key = APIKeyRecord(id: UUID().uuidString.lowercased(), clientID: clientID, keyHash: keyHash, createdAt: now, revokedAt: nil)
        try await perform("creating an API key") { database in
            try await database.raw("""
                INSERT INTO api_keys (id, client_id, key_hash, created_at)
                VALUES (\(bind: key.id), \(bind: clientID), \(bind: keyHash), \(bind: now.milliseconds))
                """).run()
        }
        return key
    }

    /// Looks an API key up by its hash.
    public func apiKey(hash: String) async throws(StorageError) -> APIKeyRecord? {
        try await perform("reading an API key") { database in
            try await database.raw("SELECT id, client_id, key_hash, created_at, revoked_at FROM api_keys WHERE key_hash = \(bind: hash)")
                .first()
                .map(Self.apiKeyRecord)
        }
    }

    // MARK: - Server keys

    /// Inserts `candidate` unless a key exists (`ON CONFLICT DO NOTHING`), then reads what is stored.
    public func serverKey(id: String, candidate: Data, now: Timestamp) async throws(StorageError) -> Data {
        try await perform("reading server key \(id)") { database in
            try await database.raw("""
                INSERT INTO server_keys (id, material, created_at) VALUES (\(bind: id), \(bind: candidate), \(bind: now.milliseconds))
                ON CONFLICT (id) DO NOTHING
                """).run()
            guard let row = try await database.raw("SELECT material FROM server_keys WHERE id = \(bind: id)").first() else {
                throw StorageError.corruptRecord("server key \(id) vanished after being stored")
            }
            return try row.decode(column: "material", as: Data.self)
        }
    }

    // MARK: - Error mapping

    /// Runs `body` on a connection, mapping driver errors to ``StorageError/queryFailed(operation:message:)``.

    func perform<Result: Sendable>(
        _ operation: String, _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws(StorageError) -> Result {
        do {
            return try await connector.withConnection(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .queryFailed(operation: operation, message: String(describing: error))
        }
    }

    /// Runs `body` in one transaction, mapping driver errors like ``perform(_:_:)``.
    func performTransaction<Result: Sendable>(
        _ operation: String, _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws(StorageError) -> Result {
        do {
            return try await connector.withTransaction(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .queryFailed(operation: operation, message: String(describing: error))
        }
    }
}
