import SQLKit

// Administrators, the app list, SSO settings and API keys: the statements behind ``CockpitStorage``.
extension SQLServerStorage: CockpitStorage {
    /// Reads the flag.
    public func isAdmin(userID: String) async throws(StorageError) -> Bool {
        try await perform("reading an administrator flag") { database in
            try await database.raw("SELECT is_admin FROM users WHERE id = \(bind: userID)").first()?
                .decode(column: "is_admin", as: Int64.self) == 1
        }
    }

    /// Sets the flag.
    public func setAdmin(username: String, admin: Bool) async throws(StorageError) -> Bool {
        try await perform("setting an administrator flag") { database in
            try await database.raw("""
                UPDATE users SET is_admin = \(bind: Int64(admin ? 1 : 0)) WHERE username = \(bind: username) RETURNING id
                """).first() != nil
        }
    }

    /// Reads every app.
    public func apps() async throws(StorageError) -> [AppRecord] {
        let rows = try await perform("listing apps") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.appColumns) FROM apps ORDER BY client_id").all()
        }
        var apps: [AppRecord] = []
        for row in rows { apps.append(try Self.appRecord(row)) }
        return apps
    }

    /// Updates both flags in one statement.
    public func setSSO(clientID: String, enabled: Bool, confirmation: Bool) async throws(StorageError) -> Bool {
        try await perform("changing SSO settings") { database in
            try await database.raw("""
                UPDATE apps SET sso_enabled = \(bind: Int64(enabled ? 1 : 0)), sso_confirmation = \(bind: Int64(confirmation ? 1 : 0))
                WHERE client_id = \(bind: clientID) RETURNING client_id
                """).first() != nil
        }
    }

    /// Reads the app's keys.
    public func apiKeys(clientID: String) async throws(StorageError) -> [APIKeyRecord] {
        try await perform("listing API keys") { database in
            try await database.raw("""
                SELECT id, client_id, key_hash, created_at, revoked_at FROM api_keys WHERE client_id = \(bind: clientID)
                ORDER BY created_at DESC, id
                """).all().map(Self.apiKeyRecord)
        }
    }

    /// A conditional update on `revoked_at IS NULL`.
    public func revokeAPIKey(id: String, clientID: String, now: Timestamp) async throws(StorageError) -> String? {
        try await perform("revoking an API key") { database in
            try await database.raw("""
                UPDATE api_keys SET revoked_at = \(bind: now.milliseconds)
                WHERE id = \(bind: id) AND client_id = \(bind: clientID) AND revoked_at IS NULL RETURNING key_hash
                """).first()?.decode(column: "key_hash", as: String.self)
        }
    }
}
