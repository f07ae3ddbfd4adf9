import SQLKit

/// Browser sessions (their hashes) and the clients each session's user has confirmed.
struct BrowserSessionStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Stores a browser session (its hash) for a signed-in user.
    func createBrowserSession(hash: String, userID: String, now: Timestamp, expiresAt: Timestamp) async throws(StorageError) {
        try await connector.perform("creating a browser session") { database in
            try await database.raw("""
                INSERT INTO browser_sessions (session_hash, user_id, created_at, expires_at)
                VALUES (\(bind: hash), \(bind: userID), \(bind: now.milliseconds), \(bind: expiresAt.milliseconds))
                """).run()
        }
    }

    /// The user id of a live browser session, or `nil`.
    ///
    /// The user of a live browser session, or `nil`.
    func browserSessionUser(hash: String, now: Timestamp) async throws(StorageError) -> String? {
        try await connector.perform("reading a browser session") { database in
            try await database.raw("""
                SELECT user_id FROM browser_sessions WHERE session_hash = \(bind: hash) AND expires_at > \(bind: now.milliseconds)
                """).first()?.decode(column: "user_id", as: String.self)
        }
    }

    /// Records that the user of a browser session (by hash) confirmed `clientID`.
    func recordConfirmedClient(sessionHash: String, clientID: String, now: Timestamp) async throws(StorageError) {
        try await connector.perform("recording a confirmed client") { database in
            try await database.raw("""
                INSERT INTO browser_session_clients (session_hash, client_id, confirmed_at)
                VALUES (\(bind: sessionHash), \(bind: clientID), \(bind: now.milliseconds))
                ON CONFLICT (session_hash, client_id) DO UPDATE SET confirmed_at = excluded.confirmed_at
                """).run()
        }
    }

    /// The clients the user of a browser session (by hash) has confirmed.
    func confirmedClients(sessionHash: String) async throws(StorageError) -> Set<String> {
        try await connector.perform("reading confirmed clients") { database in
            Set(try await database.raw("""
                SELECT client_id FROM browser_session_clients WHERE session_hash = \(bind: sessionHash)
                """).all().map { try $0.decode(column: "client_id", as: String.self) })
        }
    }

    /// Deletes one browser session (by hash) with its confirmed clients: a sign-out.
    func deleteBrowserSession(hash: String) async throws(StorageError) {
        try await connector.perform("deleting a browser session") { database in
            try await database.raw("DELETE FROM browser_session_clients WHERE session_hash = \(bind: hash)").run()
            try await database.raw("DELETE FROM browser_sessions WHERE session_hash = \(bind: hash)").run()
        }
    }

    /// Deletes every browser session of `userID` with their confirmed clients: a sign-out
    /// everywhere.
    ///
    /// - Returns: How many sessions went.
    @discardableResult
    func deleteBrowserSessions(userID: String) async throws(StorageError) -> Int {
        try await connector.performTransaction("deleting a user's browser sessions") { database in
            try await database.raw("""
                DELETE FROM browser_session_clients
                WHERE session_hash IN (SELECT session_hash FROM browser_sessions WHERE user_id = \(bind: userID))
                """).run()
            return try await database.raw("DELETE FROM browser_sessions WHERE user_id = \(bind: userID) RETURNING session_hash").all().count
        }
    }

    /// Deletes expired browser sessions with their confirmed clients.
    ///
    /// - Returns: How many sessions went.
    @discardableResult
    func deleteExpiredSessions(now: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting expired browser sessions") { database in
            try await database.raw("""
                DELETE FROM browser_session_clients WHERE session_hash IN
                    (SELECT session_hash FROM browser_sessions WHERE expires_at <= \(bind: now.milliseconds))
                """).run()
            return try await database.raw("""
                DELETE FROM browser_sessions WHERE expires_at <= \(bind: now.milliseconds) RETURNING session_hash
                """).all().count
        }
    }
}
