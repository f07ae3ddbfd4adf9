extension ServerMigrations {
    /// How long a grant made before version 7 lives at most: the default maximum grant lifetime.
    static let legacyGrantLifetimeMilliseconds: Int64 = 90 * 24 * 3600 * 1000

    /// Version 6: `apps.resource_audiences` (space-separated, `NULL` when the app is no resource
    /// server, the default) says whose API keys may introspect, and about which tokens.
    static let resourceServers = Migration(version: 6, name: "resource servers") { _ in
        ["ALTER TABLE apps ADD COLUMN resource_audiences TEXT"]
    }

    /// Version 7: bounded grants.
    ///
    /// - Every family gets an absolute expiry (`token_families.expires_at`): rotation never moves
    ///   a successor past it, and an extension grant's is never later than its parent's.
    /// - At most one live extension grant per parent and audience, kept by a partial unique index;
    ///   older duplicates are revoked here first.
    /// - `token_families(revoked_at)` is indexed for the revocation list the `/v1` endpoints read.
    static let boundedGrants = Migration(version: 7, name: "grant lifetimes, one extension grant per parent") { dialect in
        [
            "ALTER TABLE token_families ADD COLUMN expires_at BIGINT",
            "UPDATE token_families SET expires_at = created_at + \(legacyGrantLifetimeMilliseconds) WHERE parent_family_id IS NULL",
            """
            UPDATE token_families SET expires_at = (SELECT p.expires_at FROM token_families p WHERE p.id = token_families.parent_family_id)
            WHERE parent_family_id IS NOT NULL
            """,
            """
            UPDATE token_families SET revoked_at = \(currentMilliseconds(dialect))
            WHERE parent_family_id IS NOT NULL AND revoked_at IS NULL AND EXISTS (
                SELECT 1 FROM token_families n
                WHERE n.parent_family_id = token_families.parent_family_id AND n.audience = token_families.audience
                  AND n.revoked_at IS NULL
                  AND (n.created_at > token_families.created_at OR (n.created_at = token_families.created_at AND n.id > token_families.id)))
            """,
            """
            CREATE UNIQUE INDEX token_families_one_live_child ON token_families(parent_family_id, audience)
            WHERE parent_family_id IS NOT NULL AND revoked_at IS NULL
            """,
            "CREATE INDEX token_families_revoked ON token_families(revoked_at)",
        ]
    }

    /// The database's clock in milliseconds since 1970, for statements without bound values.
    private static func currentMilliseconds(_ dialect: StorageDialect) -> String {
        switch dialect {
        case .sqlite: "CAST(strftime('%s', 'now') AS INTEGER) * 1000"
        case .postgres: "CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT)"
        }
    }
}
