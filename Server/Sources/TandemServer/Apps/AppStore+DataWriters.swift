import SQLKit

// Which destinations an app's API keys may write: a grant of its own, apart from introspection.
extension AppStore {
    /// Whether the app `clientID`'s API keys may write the entity sets of `destination`.
    func mayWrite(clientID: String, destination: String) async throws(StorageError) -> Bool {
        try await connector.perform("reading a data writer's grant") { database in
            try await database.raw("""
                SELECT destination FROM data_writers WHERE client_id = \(bind: clientID) AND destination = \(bind: destination)
                """).first() != nil
        }
    }

    /// The destinations the app `clientID`'s API keys may write.
    func writableDestinations(clientID: String) async throws(StorageError) -> Set<String> {
        try await connector.perform("reading a data writer's grants") { database in
            Set(try await database.raw("SELECT destination FROM data_writers WHERE client_id = \(bind: clientID)").all()
                .map { try $0.decode(column: "destination", as: String.self) })
        }
    }

    /// Makes `destinations` the whole set the app may write (none: it writes nothing), in one
    /// transaction.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setWritableDestinations(_ destinations: Set<String>, clientID: String, now: Timestamp) async throws(StorageError) {
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        try await connector.performTransaction("granting data writes") { database in
            try await database.raw("DELETE FROM data_writers WHERE client_id = \(bind: clientID)").run()
            for destination in destinations.sorted() {
                try await database.raw("""
                    INSERT INTO data_writers (client_id, destination, created_at)
                    VALUES (\(bind: clientID), \(bind: destination), \(bind: now.milliseconds))
                    """).run()
            }
        }
    }
}
