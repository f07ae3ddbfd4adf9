import Foundation

/// Everything the server stores, behind one API with one behaviour on every database.
///
/// ``SQLServerStorage`` implements it over SQLKit for SQLite and PostgreSQL alike. Every method
/// that changes more than one row does so in one transaction; every redemption is one
/// conditional update, so correctness holds across processes sharing a database.
public protocol ServerStorage: Sendable {
    /// Runs a cheap query to prove the database answers.
    func ping() async throws(StorageError)

    // MARK: - Users

    /// Creates a user.
    ///
    /// - Parameters:
    ///   - username: The unique sign-in name.
    ///   - passwordHash: The hash from ``PasswordHasher``; never the password.
    ///   - now: The creation time.
    /// - Throws: ``StorageError/alreadyExists(_:)`` when the username is taken.
    func createUser(username: String, passwordHash: String, now: Timestamp) async throws(StorageError) -> UserRecord

    /// The user with this username, or `nil`.
    func user(named username: String) async throws(StorageError) -> UserRecord?

    // MARK: - Apps and API keys

    /// Registers an app.
    ///
    /// - Throws: ``StorageError/alreadyExists(_:)`` when the client id is taken.
    func createApp(_ app: AppRecord) async throws(StorageError)

    /// The app with this client id, or `nil`.
    func app(clientID: String) async throws(StorageError) -> AppRecord?

    /// Stores a new API key's hash for an app.
    ///
    /// - Parameters:
    ///   - clientID: The app; it must exist.
    ///   - keyHash: The key's hash from ``SecretToken/hash(_:)``.
    ///   - now: The creation time.
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func createAPIKey(clientID: String, keyHash: String, now: Timestamp) async throws(StorageError) -> APIKeyRecord

    /// The API key with this hash, or `nil`.
    func apiKey(hash: String) async throws(StorageError) -> APIKeyRecord?

    /// Registers an app as a resource server for `audiences`, or (with `nil`) unregisters it.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setResourceAudiences(_ audiences: Set<String>?, clientID: String) async throws(StorageError)

    /// The audiences an app serves as a resource server, or `nil` when it is none (the default).
    func resourceAudiences(clientID: String) async throws(StorageError) -> Set<String>?

    // MARK: - Server keys

    /// The key material stored under `id`, storing `candidate` first if there is none yet.
    ///
    /// When several processes start at once, all of them get the one value that was stored first.
    func serverKey(id: String, candidate: Data, now: Timestamp) async throws(StorageError) -> Data

    // MARK: - Refresh tokens

    /// Starts a token family with its first refresh token, in one transaction.
    ///
    /// - Parameters:
    ///   - family: The family to create; its app and user must exist.
    ///   - tokenHash: The first token's hash.
    ///   - expiresAt: When the first token expires.
    func createFamily(_ family: TokenFamily, tokenHash: String, expiresAt: Timestamp) async throws(StorageError)

    /// Starts many families at once (one transaction), each with its first refresh token.
    func createFamilies(_ entries: [FirstRefreshToken]) async throws(StorageError)

    /// Tries to rotate the presented token; see ``RotationOutcome`` for what can happen.
    ///
    /// The winner is decided by one conditional update (`rotated_at IS NULL`, unexpired, family
    /// live, right client), and inserts the successor in the same transaction. A loser reads the
    /// sealed successor if the grace window is still open, and erases it if the window has passed.
    func rotate(_ rotation: RefreshTokenRotation) async throws(StorageError) -> RotationOutcome

    /// Revokes a family and the extension grants exchanged from it: none of their tokens
    /// redeems again, and any sealed successor is erased.
    ///
    /// - Returns: The ids of the families this call revoked (none when it was revoked already).
    @discardableResult
    func revokeFamily(id: String, now: Timestamp) async throws(StorageError) -> [String]

    /// Creates a scoped extension grant with its first refresh token, only if its parent is a live
    /// user grant of the client, revoking the parent's previous extension grant for the audience;
    /// all in one transaction. See ``ExtensionGrantOutcome``.
    func createExtensionGrant(_ request: ExtensionGrantRequest) async throws(StorageError) -> ExtensionGrantOutcome

    /// The ids of the families revoked after `since`, for the ``RevocationList``.
    func familiesRevoked(since: Timestamp) async throws(StorageError) -> [String]

    /// Erases every sealed successor whose grace window ended at or before `now`.
    ///
    /// - Returns: How many were erased.
    @discardableResult
    func eraseExpiredSealedSuccessors(now: Timestamp) async throws(StorageError) -> Int

    /// The family a token (by hash) belongs to, or `nil` for an unknown token.
    func family(ofTokenHash tokenHash: String) async throws(StorageError) -> TokenFamily?

    /// A refresh token's state (by hash), or `nil` for an unknown token.
    func refreshTokenStatus(hash: String) async throws(StorageError) -> RefreshTokenStatus?

    /// The family with this id, or `nil`.
    func family(id: String) async throws(StorageError) -> TokenFamily?

    // MARK: - Authorization codes and browser sessions

    /// Stores a new authorization code's record (its hash, never the code).
    func createAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError)

    /// Tries to redeem a code; see ``CodeRedemptionOutcome``. One conditional update decides
    /// the winner, who creates the family and its first refresh token in the same transaction.
    func redeemAuthorizationCode(_ attempt: CodeRedemption) async throws(StorageError) -> CodeRedemptionOutcome

    /// Stores a browser session (its hash) for a signed-in user.
    func createBrowserSession(hash: String, userID: String, now: Timestamp, expiresAt: Timestamp) async throws(StorageError)

    /// The user id of a live browser session, or `nil`.
    func browserSessionUser(hash: String, now: Timestamp) async throws(StorageError) -> String?

    /// Deletes expired browser sessions and never-redeemed expired codes.
    ///
    /// - Returns: How many rows went.
    @discardableResult
    func deleteExpiredSignInRecords(now: Timestamp) async throws(StorageError) -> Int

    /// The user with this id, or `nil`.
    func user(id: String) async throws(StorageError) -> UserRecord?
}
