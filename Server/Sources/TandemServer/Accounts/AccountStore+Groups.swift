import SQLKit

// The groups users are in, which an actionable set's approver rule may name.
extension AccountStore {
    /// Whether the user `userID` is in `group`.
    func isMember(userID: String, of group: String) async throws(StorageError) -> Bool {
        try await connector.perform("reading a user's group") { database in
            try await database.raw("""
                SELECT group_name FROM user_groups WHERE user_id = \(bind: userID) AND group_name = \(bind: group)
                """).first() != nil
        }
    }

    /// The groups the user `userID` is in, by name.
    func groups(userID: String) async throws(StorageError) -> [String] {
        try await connector.perform("reading a user's groups") { database in
            try await database.raw("SELECT group_name FROM user_groups WHERE user_id = \(bind: userID) ORDER BY group_name").all()
                .map { try $0.decode(column: "group_name", as: String.self) }
        }
    }

    /// Puts the user `userID` in `group` (or leaves them there).
    ///
    /// - Returns: Whether they were not in it before.
    @discardableResult
    func addToGroup(userID: String, group: String, now: Timestamp) async throws(StorageError) -> Bool {
        try await connector.perform("adding a user to a group") { database in
            try await database.raw("""
                INSERT INTO user_groups (user_id, group_name, created_at) VALUES (\(bind: userID), \(bind: group), \(bind: now.milliseconds))
                ON CONFLICT (user_id, group_name) DO NOTHING RETURNING group_name
                """).first() != nil
        }
    }

    /// Takes the user `userID` out of `group`.
    ///
    /// - Returns: Whether they were in it.
    @discardableResult
    func removeFromGroup(userID: String, group: String) async throws(StorageError) -> Bool {
        try await connector.perform("removing a user from a group") { database in
            try await database.raw("""
                DELETE FROM user_groups WHERE user_id = \(bind: userID) AND group_name = \(bind: group) RETURNING group_name
                """).first() != nil
        }
    }
}
