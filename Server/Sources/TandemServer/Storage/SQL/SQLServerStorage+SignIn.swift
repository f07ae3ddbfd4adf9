import SQLKit

// Sign-in failures, confirmed clients and password upgrades: the statements behind
// ``SignInStorage``.
extension SQLServerStorage: SignInStorage {
    /// Usernames are stored at most this long, so random long names cannot bloat the table.
    static let maximumStoredUsername = 256

    /// Reads the failure record.
    public func signInFailures(clientID: String, username: String) async throws(StorageError) -> SignInFailures? {
        let username = String(username.prefix(Self.maximumStoredUsername))
        return try await perform("reading sign-in failures") { database in
            try await database.raw("""
                SELECT failures, last_failure_at FROM sign_in_failures
                WHERE client_id = \(bind: clientID) AND username = \(bind: username)
                """).first().map(Self.signInFailures)
        }
    }

    /// One upsert: a new row at one, an old row one higher, or back to one when forgotten.
    @discardableResult
    public func recordSignInFailure(clientID: String, username: String, now: Timestamp) async throws(StorageError) -> SignInFailures {
        let username = String(username.prefix(Self.maximumStoredUsername))
        let forgetBefore = now.milliseconds - Int64(SignInThrottle.memory.components.seconds) * 1000
        let row = try await perform("recording a sign-in failure") { database in
            try await database.raw("""
                INSERT INTO sign_in_failures (client_id, username, failures, last_failure_at)
                VALUES (\(bind: clientID), \(bind: username), 1, \(bind: now.milliseconds))
                ON CONFLICT (client_id, username) DO UPDATE SET
                    failures = CASE WHEN sign_in_failures.last_failure_at < \(bind: forgetBefore) THEN 1
                                    ELSE sign_in_failures.failures + 1 END,
                    last_failure_at = excluded.last_failure_at
                RETURNING failures, last_failure_at
                """).first().map(Self.signInFailures)
        }
        guard let row else { throw .corruptRecord("sign-in failure upsert returned no row") }
        return row
    }

    /// Deletes the failure record.
    public func clearSignInFailures(clientID: String, username: String) async throws(StorageError) {
        let username = String(username.prefix(Self.maximumStoredUsername))
        try await perform("clearing sign-in failures") { database in
            try await database.raw("""
                DELETE FROM sign_in_failures WHERE client_id = \(bind: clientID) AND username = \(bind: username)
                """).run()
        }
    }

    /// A conditional update on the old hash.
    public func replacePasswordHash(userID: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        try await perform("upgrading a password hash") { database in
            try await database.raw("""
                UPDATE users SET password_hash = \(bind: new) WHERE id = \(bind: userID) AND password_hash = \(bind: old)
                RETURNING id
                """).first() != nil
        }
    }

    /// Upserts the confirmation.
    public func recordConfirmedClient(sessionHash: String, clientID: String, now: Timestamp) async throws(StorageError) {
        try await perform("recording a confirmed client") { database in
            try await database.raw("""
                INSERT INTO browser_session_clients (session_hash, client_id, confirmed_at)
                VALUES (\(bind: sessionHash), \(bind: clientID), \(bind: now.milliseconds))
                ON CONFLICT (session_hash, client_id) DO UPDATE SET confirmed_at = excluded.confirmed_at
                """).run()
        }
    }

    /// Reads the session's confirmed clients.
    public func confirmedClients(sessionHash: String) async throws(StorageError) -> Set<String> {
        try await perform("reading confirmed clients") { database in
            Set(try await database.raw("""
                SELECT client_id FROM browser_session_clients WHERE session_hash = \(bind: sessionHash)
                """).all().map { try $0.decode(column: "client_id", as: String.self) })
        }
    }

    private static func signInFailures(_ row: any SQLRow) throws -> SignInFailures {
        SignInFailures(
            count: try row.decode(column: "failures", as: Int.self),
            lastFailureAt: Timestamp(milliseconds: try row.decode(column: "last_failure_at", as: Int64.self)))
    }
}
