import TandemSharedContainer

/// What authorises a request to the app's server: the user's access token (OAuth apps) or the
/// app's key (API-key apps, such as a kiosk with no user).
///
/// ```swift
/// let credentials = RequestCredentials.tokens(coordinator)
/// let response = try await client.get("/v1/destinations", credentials: credentials)
/// ```
public enum RequestCredentials: Sendable {
    /// A bearer token from `provider`, refreshed and retried once on a 401.
    case tokens(any AccessTokenProvider)
    /// The app's key in the `X-API-Key` header.
    case apiKey(APIKeyAuthentication)

}
