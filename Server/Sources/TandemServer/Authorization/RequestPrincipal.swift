/// Who a request acts for, once its credential has been checked.
public struct RequestPrincipal: Sendable, Equatable {
    /// How the request authenticated.
    public enum Credential: String, Sendable, Equatable {
        /// A signed access token (`Authorization: Bearer`).
        case bearer
        /// An app's API key (`X-API-Key`).
        case apiKey
    }

    /// The app the credential was issued to.
    public var clientID: String
    /// The user a bearer token acts for (its `sub`); `nil` for an API key.
    public var subject: String?
    /// The scopes the credential carries.
    public var scopes: Set<String>
    /// The bearer token's audience, or `nil` for an API key.
    public var audience: [String]?
    /// How the request authenticated.
    public var credential: Credential

    /// Creates a principal.
    public init(clientID: String, subject: String?, scopes: Set<String>, audience: [String]?, credential: Credential) {
        self.clientID = clientID
        self.subject = subject
        self.scopes = scopes
        self.audience = audience
        self.credential = credential
    }
}
