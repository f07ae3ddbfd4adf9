extension ServerMigrations {
    /// Version 10: the cross-device defences of SSO passcodes (RFC 10027 §6).
    ///
    /// - `state` admits `cancelled`: a second device presented a claimed passcode, so the
    ///   transfer stops and nobody is offered Approve.
    /// - What the server observed, for the desktop's decision: the address that asked for the
    ///   passcode (`issue_source`), and the claiming request's address and user agent
    ///   (`claim_source`, `claim_user_agent`).
    /// - What a redemption released (`family_id`), so that a later reuse revokes it, and when
    ///   the passcode was first presented again after its release (`reused_at`).
    ///
    /// SQLite cannot change a `CHECK` in place, so the table is copied into its new shape (the
    /// same statements serve PostgreSQL).
    static let ssoDefences = Migration(version: 10, name: "sso cross-device defences") { _ in
        [
            """
            CREATE TABLE sso_passcodes_v10 (
                id TEXT PRIMARY KEY,
                passcode_hash TEXT NOT NULL UNIQUE,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                user_id TEXT NOT NULL REFERENCES users(id),
                session_hash TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('issued', 'claimed', 'approved', 'denied', 'cancelled', 'redeemed')),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                device_hash TEXT,
                device_label TEXT,
                claimed_at BIGINT,
                decided_at BIGINT,
                last_poll_at BIGINT,
                redeemed_at BIGINT,
                issue_source TEXT,
                claim_source TEXT,
                claim_user_agent TEXT,
                family_id TEXT,
                reused_at BIGINT
            )
            """,
            """
            INSERT INTO sso_passcodes_v10 (
                id, passcode_hash, client_id, user_id, session_hash, state, created_at, expires_at, device_hash, device_label,
                claimed_at, decided_at, last_poll_at, redeemed_at)
            SELECT id, passcode_hash, client_id, user_id, session_hash, state, created_at, expires_at, device_hash, device_label,
                claimed_at, decided_at, last_poll_at, redeemed_at
            FROM sso_passcodes
            """,
            "DROP TABLE sso_passcodes",
            "ALTER TABLE sso_passcodes_v10 RENAME TO sso_passcodes",
            "CREATE INDEX sso_passcodes_expiry ON sso_passcodes(expires_at)",
            "CREATE INDEX sso_passcodes_user ON sso_passcodes(user_id, created_at)",
        ]
    }
}
