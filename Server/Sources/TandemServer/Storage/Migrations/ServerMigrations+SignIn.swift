extension ServerMigrations {
    /// Version 4: failed sign-ins per client and username (the escalating delay every instance
    /// shares) and the clients each browser session's user has confirmed.
    static let signIn = Migration(version: 4, name: "sign-in failures and confirmed clients") { _ in
        [
            """
            CREATE TABLE sign_in_failures (
                client_id TEXT NOT NULL,
                username TEXT NOT NULL,
                failures BIGINT NOT NULL,
                last_failure_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, username)
            )
            """,
            "CREATE INDEX sign_in_failures_last ON sign_in_failures(last_failure_at)",
            """
            CREATE TABLE browser_session_clients (
                session_hash TEXT NOT NULL REFERENCES browser_sessions(session_hash),
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                confirmed_at BIGINT NOT NULL,
                PRIMARY KEY (session_hash, client_id)
            )
            """,
        ]
    }
}
