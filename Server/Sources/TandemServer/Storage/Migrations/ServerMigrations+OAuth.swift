extension ServerMigrations {
    /// Version 2: authorization codes, browser sessions, and extension grants linked to the
    /// user grant they were exchanged from (revoking the user's grant revokes them too).
    static let oauthSchema = Migration(version: 2, name: "authorization codes, browser sessions, linked families, successor trigger") { dialect in
        [
            // Rotation is one UPDATE: it marks the presented token rotated and records its
            // successor, and this trigger inserts the successor's row in the same statement. One
            // statement is atomic on its own, so the hot path needs no BEGIN/COMMIT round trips.
            "ALTER TABLE refresh_tokens ADD COLUMN successor_expires_at BIGINT",
        ] + successorTrigger(dialect) + [
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

    /// The trigger that inserts a rotated token's successor row.
    private static func successorTrigger(_ dialect: StorageDialect) -> [String] {
        switch dialect {
        case .sqlite:
            return [
                """
                CREATE TRIGGER refresh_tokens_insert_successor AFTER UPDATE OF rotated_at ON refresh_tokens
                FOR EACH ROW WHEN OLD.rotated_at IS NULL AND NEW.rotated_at IS NOT NULL AND NEW.successor_hash IS NOT NULL
                BEGIN
                    INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at)
                    VALUES (NEW.successor_hash, NEW.family_id, NEW.rotated_at, NEW.successor_expires_at);
                END
                """,
            ]
        case .postgres:
            return [
                """
                CREATE FUNCTION refresh_tokens_insert_successor() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at)
                    VALUES (NEW.successor_hash, NEW.family_id, NEW.rotated_at, NEW.successor_expires_at);
                    RETURN NEW;
                END
                $$
                """,
                """
                CREATE TRIGGER refresh_tokens_insert_successor AFTER UPDATE OF rotated_at ON refresh_tokens
                FOR EACH ROW WHEN (OLD.rotated_at IS NULL AND NEW.rotated_at IS NOT NULL AND NEW.successor_hash IS NOT NULL)
                EXECUTE FUNCTION refresh_tokens_insert_successor()
                """,
            ]
        }
    }
}
