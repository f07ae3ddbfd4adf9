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

    /// Version 26: changes a customer's backend reports, per user.
    ///
    /// - `entity_set_changes.user_id`: the user whose data changed, for a change a backend
    ///   reported for some users (`POST /v1/destinations/{d}/{set}/changes`); null for a change
    ///   of everyone's rows (a stored set replaced, or a backend change without users).
    static let backendChanges = Migration(version: 26, name: "backend changes per user") { _ in
        ["ALTER TABLE entity_set_changes ADD COLUMN user_id TEXT"]
    }

    /// Version 27: the technical users of backend destinations.
    ///
    /// - `backend_credentials`: per destination (`technical-user` authentication), the technical
    ///   user's name and its password sealed (AES-GCM under the server's sealing key, the
    ///   destination and the username as associated data); removed with its destination.
    static let backendCredentials = Migration(version: 27, name: "backend credentials") { dialect in
        [
            """
            CREATE TABLE backend_credentials (
                destination TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                sealed_password \(dialect.bytesType) NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}
