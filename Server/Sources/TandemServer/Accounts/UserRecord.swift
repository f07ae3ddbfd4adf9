/// A user who can sign in, as stored: the password only as a ``PasswordHasher`` hash string.
public struct UserRecord: Sendable, Hashable {
    /// A random identifier (a UUID string), used as the `sub` claim of access tokens.
    public var id: String
    /// The unique name the user signs in with.
    public var username: String
    /// The password hash in ``PasswordHasher``'s self-describing format.
    public var passwordHash: String
    /// When the user was created.
    public var createdAt: Timestamp

    /// Creates a user record.
    public init(id: String, username: String, passwordHash: String, createdAt: Timestamp) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
