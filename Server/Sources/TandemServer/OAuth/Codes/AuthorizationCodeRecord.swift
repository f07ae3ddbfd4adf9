/// A one-time authorization code as stored: only its hash, bound to the client, the redirect URI
/// and the PKCE challenge of the request that obtained it.
struct AuthorizationCodeRecord: Sendable, Hashable {
    /// SHA-256 of the code (``SecretToken/hash(_:)``).
    var codeHash: String
    /// The client the code was issued to.
    var clientID: String
    /// The user who signed in.
    var userID: String
    /// The exact redirect URI of the authorization request.
    var redirectURI: String
    /// The scope granted.
    var scope: String
    /// The S256 PKCE challenge (base64url SHA-256 of the verifier).
    var codeChallenge: String
    /// When the code was issued.
    var createdAt: Timestamp
    /// When it stops being redeemable.
    var expiresAt: Timestamp

    /// Creates a record.
    init(
        codeHash: String, clientID: String, userID: String, redirectURI: String, scope: String,
        codeChallenge: String, createdAt: Timestamp, expiresAt: Timestamp
    ) {
        self.codeHash = codeHash
        self.clientID = clientID
        self.userID = userID
        self.redirectURI = redirectURI
        self.scope = scope
        self.codeChallenge = codeChallenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
