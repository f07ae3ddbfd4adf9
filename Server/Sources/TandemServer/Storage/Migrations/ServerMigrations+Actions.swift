extension ServerMigrations {
    /// Version 18: widget actions — entity sets whose items can be approved or rejected.
    ///
    /// - `actionable_entity_sets`: which sets are actionable and the row field naming an item.
    ///   Their rows carry `Status` and a server-computed `ETag` (``ActionableRows``).
    /// - `entity_rows.item_id`: an actionable row's id, so an action finds its row with one
    ///   index lookup (`NULL` in other sets; unique within a set).
    /// - `action_decisions`: the answer given to each idempotency key of a user of an app, with
    ///   the fingerprint of the request it answered, so a repeat gets the same answer and a
    ///   different request with the same key is refused. Kept a day (``ActionStore/idempotencyWindow``).
    /// - `step_up_keys`: the public step-up key a host registered for one sign-in (grant family),
    ///   which its step-up proofs must be signed by.
    /// - `app_action_policies`: an app's ``ActionPolicyDocument``, beside its passcode policy.
    static let actions = Migration(version: 18, name: "widget actions") { _ in
        [
            """
            CREATE TABLE actionable_entity_sets (
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                id_field TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (destination, entity_set)
            )
            """,
            "ALTER TABLE entity_rows ADD COLUMN item_id TEXT",
            "CREATE UNIQUE INDEX entity_rows_by_item ON entity_rows(destination, entity_set, item_id)",
            """
            CREATE TABLE action_decisions (
                client_id TEXT NOT NULL,
                subject TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                status_code BIGINT NOT NULL,
                body TEXT NOT NULL,
                etag TEXT,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, subject, idempotency_key)
            )
            """,
            "CREATE INDEX action_decisions_by_age ON action_decisions(created_at)",
            """
            CREATE TABLE step_up_keys (
                client_id TEXT NOT NULL,
                family_id TEXT NOT NULL,
                subject TEXT NOT NULL,
                jkt TEXT NOT NULL,
                jwk TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, family_id)
            )
            """,
            """
            CREATE TABLE app_action_policies (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                policy TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}
