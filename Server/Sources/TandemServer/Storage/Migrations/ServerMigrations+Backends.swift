extension ServerMigrations {
    /// Version 25: destinations whose data lives in a customer's backend.
    ///
    /// - `backend_destinations`: one row per destination of kind `rest`, `odata-v4` or
    ///   `odata-v2`: its validated JSON document (`TandemBackends.BackendDestination`: base URL,
    ///   authentication, entity sets and their mappings) and when it last changed. No secret is
    ///   in it: a technical user's credentials, when there are some, are sealed elsewhere.
    static let backendDestinations = Migration(version: 25, name: "backend destinations") { _ in
        [
            """
            CREATE TABLE backend_destinations (
                name TEXT PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('rest', 'odata-v4', 'odata-v2')),
                document TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}
