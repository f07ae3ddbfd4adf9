/// Where ``BearerTokenMiddleware`` gets access tokens: usually a ``RefreshCoordinator``.
public protocol AccessTokenProvider: Sendable {
    /// An access token to send now, refreshed first if the stored one is about to expire.
    func accessToken() async throws(AuthError) -> String

    /// A new access token after the server refused `staleAccessToken` (401), or the one another
    /// caller already got in the meantime.
    ///
    /// - Parameter staleAccessToken: The token the server refused.
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String
}
