/// Where ``BearerTokenMiddleware`` gets access tokens: usually a ``RefreshCoordinator``.
public protocol AccessTokenProvider: Sendable {
    /// An access token to send now, refreshed first if the stored one is about to expire.
    func accessToken() async throws(AuthError) -> String

    /// A new access token after the server refused `staleAccessToken` (401), or the one another
    /// caller already got in the meantime.
    ///
    /// - Parameter staleAccessToken: The token the server refused.
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String

    /// ``accessToken()`` with, for a token bound to a DPoP key, the key its requests' proofs
    /// are signed with. By default a bearer token.
    func accessCredential() async throws(AuthError) -> AccessCredential

    /// ``refreshedAccessToken(replacing:)`` with, for a token bound to a DPoP key, the key its
    /// requests' proofs are signed with. By default a bearer token.
    func refreshedAccessCredential(replacing staleAccessToken: String) async throws(AuthError) -> AccessCredential
}

extension AccessTokenProvider {
    /// ``accessToken()`` as a bearer token.
    public func accessCredential() async throws(AuthError) -> AccessCredential {
        AccessCredential(token: try await accessToken())
    }

    /// ``refreshedAccessToken(replacing:)`` as a bearer token.
    public func refreshedAccessCredential(replacing staleAccessToken: String) async throws(AuthError) -> AccessCredential {
        AccessCredential(token: try await refreshedAccessToken(replacing: staleAccessToken))
    }
}
