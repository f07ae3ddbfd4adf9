extension ServerMigrations {
    /// Version 4: what the analytics quota and retention need. Each event records its stored
    /// size, `analytics_usage` keeps each app's running totals (so the quota check is one row,
    /// not a count over millions), and an index on the reception time serves retention.
    ///
    /// Events stored before this version count their properties' and name's characters.
    static let operations = Migration(version: 5, name: "analytics usage and retention") { _ in
        [
            "ALTER TABLE analytics_events ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0",
            "UPDATE analytics_events SET stored_bytes = LENGTH(properties) + LENGTH(name)",
            "CREATE INDEX analytics_events_by_reception ON analytics_events(received_at)",
            """
            CREATE TABLE analytics_usage (
                client_id TEXT PRIMARY KEY,
                event_count BIGINT NOT NULL,
                byte_count BIGINT NOT NULL
            )
            """,
            """
            INSERT INTO analytics_usage (client_id, event_count, byte_count)
            SELECT client_id, COUNT(*), SUM(stored_bytes) FROM analytics_events GROUP BY client_id
            """,
        ]
    }
}
