/// What the cockpit reads and changes beyond the other storage protocols: administrators, the
/// list of apps, their SSO settings and their API keys.
public protocol CockpitStorage: Sendable {
    /// Whether the user may use the cockpit.
    func isAdmin(userID: String) async throws(StorageError) -> Bool

    /// Makes the user with `username` an administrator, or not.
    ///
    /// - Returns: Whether such a user exists.
    func setAdmin(username: String, admin: Bool) async throws(StorageError) -> Bool

    /// Every app, by client id.
    func apps() async throws(StorageError) -> [AppRecord]

    /// Turns cross-context SSO and its desktop confirmation on or off for an app.
    ///
    /// - Returns: Whether the app exists.
    func setSSO(clientID: String, enabled: Bool, confirmation: Bool) async throws(StorageError) -> Bool

    /// An app's API keys (never the keys themselves), newest first.
    func apiKeys(clientID: String) async throws(StorageError) -> [APIKeyRecord]

    /// Revokes the key `id` of `clientID`, if it is not already.
    ///
    /// - Returns: The key's stored hash when this call revoked it, else `nil`.
    func revokeAPIKey(id: String, clientID: String, now: Timestamp) async throws(StorageError) -> String?
}
