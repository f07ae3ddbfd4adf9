extension ServerMigrations {
    /// Version 2: authorization codes, browser sessions, and extension grants linked to the
    /// user grant they were exchanged from (revoking the user's grant revokes them too).
    static let oauthSchema = Migration(version: 2, name: "authorization codes, browser sessions, linked families") { _ in
        [
            "ALTER TABLE token_families ADD COLUMN parent_family_id TEXT REFERENCES token_families(id)",
            "CREATE INDEX token_families_parent ON token_families(parent_family_id)",
            """
            CREATE TABLE authorization_codes (
                code_hash TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                user_id TEXT NOT NULL REFERENCES users(id),
                redirect_uri TEXT NOT NULL,
                scope TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                redeemed_at BIGINT,
                family_id TEXT REFERENCES token_families(id)
            )
            """,
            "CREATE INDEX authorization_codes_expires ON authorization_codes(expires_at)",
            """
            CREATE TABLE browser_sessions (
                session_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX browser_sessions_expires ON browser_sessions(expires_at)",
        ]
    }
}
