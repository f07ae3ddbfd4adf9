extension ServerMigrations {
    /// Version 3: the business data the resource endpoints serve, per-app passcode policies and
    /// analytics events.
    ///
    /// Rows are stored as canonical JSON text at a contiguous `position` (0, 1, 2, …) within their
    /// entity set, so a page is one range scan of the primary key, never an `OFFSET` walk, and
    /// `entity_sets.row_count` gives the total without counting. Events are keyed by the client's
    /// event id, so a batch sent twice is stored once.
    static let businessData = Migration(version: 3, name: "business data and analytics") { _ in
        [
            """
            CREATE TABLE destinations (
                name TEXT PRIMARY KEY,
                title TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE entity_sets (
                destination TEXT NOT NULL REFERENCES destinations(name),
                name TEXT NOT NULL,
                row_count BIGINT NOT NULL,
                content_hash TEXT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (destination, name)
            )
            """,
            """
            CREATE TABLE entity_rows (
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                position BIGINT NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (destination, entity_set, position),
                FOREIGN KEY (destination, entity_set) REFERENCES entity_sets(destination, name)
            )
            """,
            """
            CREATE TABLE app_passcode_policies (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                policy TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE analytics_events (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL,
                subject TEXT,
                name TEXT NOT NULL,
                occurred_at BIGINT NOT NULL,
                received_at BIGINT NOT NULL,
                kind TEXT,
                family TEXT,
                configuration TEXT,
                properties TEXT NOT NULL
            )
            """,
            "CREATE INDEX analytics_events_by_name_and_time ON analytics_events(client_id, name, occurred_at)",
        ]
    }
}
