// The fourth security review's schema (issue 37): versions 19 to 22.
extension ServerMigrations {
    /// Version 19: `token_families.dpop_bound_at`, when a bearer grant was bound to a DPoP key at
    /// a refresh (`NULL` for a grant bound from its start, or never bound). A refresh token
    /// issued before that moment and presented afterwards is a reuse of the grant, whatever key
    /// comes with it: the grant is revoked (``TokenStore/rotate(_:)``).
    static let bindingTime = Migration(version: 19, name: "dpop binding time") { _ in
        ["ALTER TABLE token_families ADD COLUMN dpop_bound_at BIGINT"]
    }

    /// Version 20: who may decide the items of an actionable set, which is the data's rule and
    /// not a scope every user holds.
    ///
    /// - `actionable_entity_sets.apps`: the client ids (space-separated) whose hosts may act on
    ///   the set; empty — every set that existed before — until an administrator names them.
    /// - `actionable_entity_sets.approvers`: who may decide (``ApproverRule``: `field:NAME`, the
    ///   item's field naming its approvers, or `group:NAME`); `NULL`: nobody, until named.
    /// - `actionable_entity_sets.requester_field`: the item's field naming who asked for it,
    ///   who may never decide it.
    /// - `actionable_entity_sets.step_up_above`, `amount_field`: the set's own step-up policy,
    ///   which replaces the app's (`app_action_policies` goes: a looser app must not decide
    ///   above the data's threshold).
    /// - `user_groups`: the groups a user is in (`tandem admin set-group`).
    static let approvers = Migration(version: 20, name: "approvers") { _ in
        [
            "ALTER TABLE actionable_entity_sets ADD COLUMN apps TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE actionable_entity_sets ADD COLUMN approvers TEXT",
            "ALTER TABLE actionable_entity_sets ADD COLUMN requester_field TEXT",
            "ALTER TABLE actionable_entity_sets ADD COLUMN step_up_above TEXT NOT NULL DEFAULT '1000.00'",
            "ALTER TABLE actionable_entity_sets ADD COLUMN amount_field TEXT NOT NULL DEFAULT 'Amount'",
            "DROP TABLE app_action_policies",
            """
            CREATE TABLE user_groups (
                user_id TEXT NOT NULL REFERENCES users(id),
                group_name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, group_name)
            )
            """,
            "CREATE INDEX user_groups_by_group ON user_groups(group_name)",
        ]
    }

    /// Version 21: an APNs token names one install of one app on one device, so it is registered
    /// once per app and environment: the newest registration keeps it (older duplicates go here),
    /// and a unique index keeps it so. APNs' refusal of a token then removes that app's and
    /// environment's registration only, never another app's or user's.
    static let pushTokenOwnership = Migration(version: 21, name: "push token ownership") { _ in
        [
            """
            DELETE FROM push_registrations WHERE EXISTS (
                SELECT 1 FROM push_registrations newer
                WHERE newer.client_id = push_registrations.client_id AND newer.environment = push_registrations.environment
                  AND newer.token = push_registrations.token
                  AND (newer.updated_at > push_registrations.updated_at
                       OR (newer.updated_at = push_registrations.updated_at
                           AND newer.user_id || ' ' || newer.device_id || ' ' || newer.kind
                               > push_registrations.user_id || ' ' || push_registrations.device_id || ' ' || push_registrations.kind)))
            """,
            "CREATE UNIQUE INDEX push_registrations_token_per_app ON push_registrations(client_id, environment, token)",
        ]
    }

    /// Version 22: `data_writers`, the destinations each app's API keys may write
    /// (`PUT /v1/destinations/{destination}/{entitySet}`), apart from `apps.resource_audiences`,
    /// which now grants introspection only. An app that wrote through its `tandem` audience keeps
    /// writing the destinations that exist now; any other needs its own grant.
    static let dataWriters = Migration(version: 22, name: "data writers") { _ in
        [
            """
            CREATE TABLE data_writers (
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                destination TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, destination)
            )
            """,
            """
            INSERT INTO data_writers (client_id, destination, created_at)
            SELECT a.client_id, d.name, d.created_at FROM apps a, destinations d
            WHERE ' ' || a.resource_audiences || ' ' LIKE '% tandem %'
            """,
        ]
    }

    /// Version 23: a DPoP-bound refresh spends its proof in the rotation statement itself. The
    /// statement names the proof (`rotation_proof_jkt`, `rotation_proof_jti`,
    /// `rotation_proof_expires_at`) and rotates only while the proof is unseen, and this trigger
    /// records it in `dpop_proofs` in the same statement: one statement, which SQLite's writer
    /// shares commits with others, instead of a transaction that would hold the writer for its
    /// round trips. A proof presented twice at once fails the second statement on the table's key.
    static let proofWithRotation = Migration(version: 23, name: "dpop proof spent with its rotation") { dialect in
        [
            "ALTER TABLE refresh_tokens ADD COLUMN rotation_proof_jkt TEXT",
            "ALTER TABLE refresh_tokens ADD COLUMN rotation_proof_jti TEXT",
            "ALTER TABLE refresh_tokens ADD COLUMN rotation_proof_expires_at BIGINT",
        ] + proofTrigger(dialect)
    }

    /// The trigger that records the proof a rotation names.
    private static func proofTrigger(_ dialect: StorageDialect) -> [String] {
        switch dialect {
        case .sqlite:
            return [
                """
                CREATE TRIGGER refresh_tokens_spend_proof AFTER UPDATE OF rotation_proof_jti ON refresh_tokens
                FOR EACH ROW WHEN NEW.rotation_proof_jti IS NOT NULL
                BEGIN
                    INSERT INTO dpop_proofs (jkt, jti, expires_at)
                    VALUES (NEW.rotation_proof_jkt, NEW.rotation_proof_jti, NEW.rotation_proof_expires_at);
                END
                """,
            ]
        case .postgres:
            return [
                """
                CREATE FUNCTION refresh_tokens_spend_proof() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO dpop_proofs (jkt, jti, expires_at)
                    VALUES (NEW.rotation_proof_jkt, NEW.rotation_proof_jti, NEW.rotation_proof_expires_at);
                    RETURN NEW;
                END
                $$
                """,
                """
                CREATE TRIGGER refresh_tokens_spend_proof AFTER UPDATE OF rotation_proof_jti ON refresh_tokens
                FOR EACH ROW WHEN (NEW.rotation_proof_jti IS NOT NULL)
                EXECUTE FUNCTION refresh_tokens_spend_proof()
                """,
            ]
        }
    }
}
