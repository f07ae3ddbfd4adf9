extension ServerMigrations {
    /// Version 15: the change feed. Every replacement that changes an entity set's rows appends
    /// a row here in the same transaction: which set, its new version (the content hash its
    /// pages' ETags follow), its row count and when. What the server pushes to devices starts
    /// from these rows; the storage sweep deletes them after their retention.
    static let changeFeed = Migration(version: 15, name: "change feed") { _ in
        [
            """
            CREATE TABLE entity_set_changes (
                id TEXT PRIMARY KEY,
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                version TEXT NOT NULL,
                row_count BIGINT NOT NULL,
                changed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX entity_set_changes_by_time ON entity_set_changes(changed_at, id)",
        ]
    }
}
