/// An API key as stored: only its SHA-256 hash, never the key itself.
struct APIKeyRecord: Sendable, Hashable {
    /// A random identifier (a UUID string), safe to show and log.
    var id: String
    /// The app the key belongs to.
    var clientID: String
    /// The hex SHA-256 of the key (see ``SecretToken/hash(_:)``).
    var keyHash: String
    /// When the key was created.
    var createdAt: Timestamp
    /// When the key was revoked, if it was.
    var revokedAt: Timestamp?

    /// Creates an API key record.
    init(id: String, clientID: String, keyHash: String, createdAt: Timestamp, revokedAt: Timestamp?) {
        self.id = id
        self.clientID = clientID
        self.keyHash = keyHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
