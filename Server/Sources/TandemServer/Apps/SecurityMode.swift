/// How an app authenticates to the server.
public enum SecurityMode: String, Sendable, Codable, CaseIterable {
    /// Every request carries the app's API key; there is no user sign-in.
    case apiKey
    /// Users sign in through OAuth 2 (authorization code + PKCE) and requests carry bearer tokens.
    case oauth
}
