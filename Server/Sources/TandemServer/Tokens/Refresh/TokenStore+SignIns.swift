import SQLKit

// A user's sign-ins, as their account page lists them.
extension TokenStore {
    /// The user's live sign-ins: their user grants (not the widgets' grants exchanged from them)
    /// that are neither revoked nor ended at `now`, newest first.
    func signIns(userID: String, now: Timestamp) async throws(StorageError) -> [TokenFamily] {
        try await connector.perform("reading a user's sign-ins") { database in
            var families: [TokenFamily] = []
            for row in try await database.raw("""
                SELECT id FROM token_families
                WHERE user_id = \(bind: userID) AND parent_family_id IS NULL AND revoked_at IS NULL AND expires_at > \(bind: now.milliseconds)
                ORDER BY created_at DESC
                """).all() {
                if let family = try await Self.family(id: try row.decode(column: "id", as: String.self), in: database) { families.append(family) }
            }
            return families
        }
    }
}
