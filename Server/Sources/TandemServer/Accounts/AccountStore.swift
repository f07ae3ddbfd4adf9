import Foundation
import SQLKit

/// Users: their accounts, password hashes and the administrator flag.
///
/// ```swift
/// let user = try await database.accounts.createUser(username: "ada", passwordHash: hash, now: Timestamp(clock.now))
/// let again = try await database.accounts.user(named: "ada")
/// ```
struct AccountStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Creates a user.
    ///
    /// - Parameters:
    ///   - username: The unique sign-in name.
    ///   - passwordHash: The hash from ``PasswordHasher``; never the password.
    ///   - now: The creation time.
    /// - Throws: ``StorageError/alreadyExists(_:)`` when the username is taken.
    func createUser(username: String, passwordHash: String, now: Timestamp) async throws(StorageError) -> UserRecord {
        let user = UserRecord(id: UUID().uuidString.lowercased(), username: username, passwordHash: passwordHash, createdAt: now)
        let inserted = try await connector.perform("creating a user") { database in
            try await database.raw("""
                INSERT INTO users (id, username, password_hash, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: user.passwordHash), \(bind: now.milliseconds))
                ON CONFLICT (username) DO NOTHING RETURNING id
                """).all().count
        }
        guard inserted == 1 else { throw .alreadyExists("user \(username.debugDescription)") }
        return user
    }

    /// The user with this username, or `nil`.
    func user(named username: String) async throws(StorageError) -> UserRecord? {
        try await connector.perform("reading a user") { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users WHERE username = \(bind: username)")
                .first()
                .map(Self.userRecord)
        }
    }

    /// The user with this id, or `nil`.
    func user(id: String) async throws(StorageError) -> UserRecord? {
        try await connector.perform("reading a user") { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users WHERE id = \(bind: id)")
                .first()
                .map(Self.userRecord)
        }
    }

    /// A `users` row (`id, username, password_hash, created_at`) as a record.
    static func userRecord(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decode(column: "id", as: String.self),
            username: try row.decode(column: "username", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
    }

    /// Replaces a user's password hash, only if it is still `old` (so a password changed in the
    /// meantime is kept).
    ///
    /// - Returns: Whether the hash was replaced.
    ///
    /// A conditional update on the old hash.
    func replacePasswordHash(userID: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        try await connector.perform("upgrading a password hash") { database in
            try await database.raw("""
                UPDATE users SET password_hash = \(bind: new) WHERE id = \(bind: userID) AND password_hash = \(bind: old)
                RETURNING id
                """).first() != nil
        }
    }

    /// Whether the user may use the cockpit.
    func isAdmin(userID: String) async throws(StorageError) -> Bool {
        try await connector.perform("reading an administrator flag") { database in
            try await database.raw("SELECT is_admin FROM users WHERE id = \(bind: userID)").first()?
                .decode(column: "is_admin", as: Int64.self) == 1
        }
    }

    /// Makes the user with `username` an administrator, or not.
    ///
    /// - Returns: Whether such a user exists.
    func setAdmin(username: String, admin: Bool) async throws(StorageError) -> Bool {
        try await connector.perform("setting an administrator flag") { database in
            try await database.raw("""
                UPDATE users SET is_admin = \(bind: Int64(admin ? 1 : 0)) WHERE username = \(bind: username) RETURNING id
                """).first() != nil
        }
    }
}
