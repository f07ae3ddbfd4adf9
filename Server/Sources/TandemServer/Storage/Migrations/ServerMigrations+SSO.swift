extension ServerMigrations {
    /// Version 8: cross-context SSO and the audit log.
    ///
    /// - `apps.sso_confirmation` (on by default): the desktop page must approve a phone's
    ///   redemption before its tokens are released.
    /// - `sso_passcodes`: one row per passcode, found by its SHA-256 (the passcode itself is never
    ///   stored) or by its public id (what the desktop page polls). Each moves
    ///   `issued → claimed → approved | denied`, and `→ redeemed` once, by conditional updates.
    /// - `audit_events`: what happened to passcodes (issue, claim, decision, redemption, every
    ///   failure and reuse), for the cockpit and `tandem admin audit`.
    static let sso = Migration(version: 8, name: "sso passcodes and the audit log") { _ in
        [
            "ALTER TABLE apps ADD COLUMN sso_confirmation BIGINT NOT NULL DEFAULT 1",
            """
            CREATE TABLE sso_passcodes (
                id TEXT PRIMARY KEY,
                passcode_hash TEXT NOT NULL UNIQUE,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                user_id TEXT NOT NULL REFERENCES users(id),
                session_hash TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('issued', 'claimed', 'approved', 'denied', 'redeemed')),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                device_hash TEXT,
                device_label TEXT,
                claimed_at BIGINT,
                decided_at BIGINT,
                last_poll_at BIGINT,
                redeemed_at BIGINT
            )
            """,
            "CREATE INDEX sso_passcodes_expiry ON sso_passcodes(expires_at)",
            """
            CREATE TABLE audit_events (
                id TEXT PRIMARY KEY,
                at BIGINT NOT NULL,
                kind TEXT NOT NULL,
                client_id TEXT,
                user_id TEXT,
                source TEXT,
                detail TEXT NOT NULL
            )
            """,
            "CREATE INDEX audit_events_at ON audit_events(at)",
        ]
    }
}
