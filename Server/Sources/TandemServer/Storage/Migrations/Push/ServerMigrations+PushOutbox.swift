extension ServerMigrations {
    /// Version 17: what the push provider sends, and with which key.
    ///
    /// - `apns_credentials`: an app's APNs auth key (the `.p8` key's P-256 scalar, sealed under
    ///   the server's sealing key with the app and key id as associated data), its key id, team
    ///   id and bundle id. Apps without one get no pushes.
    /// - `push_outbox`: one row per device token kind and entity set with a push owed, written in
    ///   the transaction that changes the set, so a crash never loses one. A further change
    ///   while the row waits only moves its `change_id` (the pushes coalesce); `due_at` is when
    ///   it may go (the coalescing window, a back-off, or a send in progress: a lease).
    /// - `push_deliveries`: when each device was last pushed for each set (the coalescing
    ///   window starts there).
    /// - `push_delivery_counts`: pushes sent and refused per app, kind and outcome, for the
    ///   cockpit.
    static let pushOutbox = Migration(version: 17, name: "push outbox") { dialect in
        [
            """
            CREATE TABLE apns_credentials (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                key_id TEXT NOT NULL,
                team_id TEXT NOT NULL,
                bundle_id TEXT NOT NULL,
                sealed_key \(dialect.bytesType) NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE push_outbox (
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                change_id TEXT NOT NULL,
                enqueued_at BIGINT NOT NULL,
                due_at BIGINT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (client_id, user_id, device_id, kind, destination, entity_set)
            )
            """,
            "CREATE INDEX push_outbox_by_due ON push_outbox(due_at)",
            """
            CREATE TABLE push_deliveries (
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                last_sent_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, user_id, device_id, kind, destination, entity_set)
            )
            """,
            """
            CREATE TABLE push_delivery_counts (
                client_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                outcome TEXT NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (client_id, kind, outcome)
            )
            """,
        ]
    }
}
