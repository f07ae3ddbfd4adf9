/// Who a request acts for, once its credential has been checked.
struct RequestPrincipal: Sendable, Equatable {
    /// How the request authenticated.
    enum Credential: String, Sendable, Equatable {
        /// A signed access token (`Authorization: Bearer`).
        case bearer
        /// A DPoP-bound access token with a proof by its key (`Authorization: DPoP` and `DPoP`).
        case dpop
        /// An app's API key (`X-API-Key`).
        case apiKey
    }

    /// The app the credential was issued to.
    var clientID: String
    /// The user a bearer token acts for (its `sub`); `nil` for an API key.
    var subject: String?
    /// The scopes the credential carries.
    var scopes: Set<String>
    /// The bearer token's audience, or `nil` for an API key.
    var audience: [String]?
    /// How the request authenticated.
    var credential: Credential
    /// The grant (refresh-token family) a bearer token was issued from, or `nil` for an API key:
    /// what the request's session is, for what must end with it.
    var familyID: String?

    /// Creates a principal.
    init(clientID: String, subject: String?, scopes: Set<String>, audience: [String]?, credential: Credential, familyID: String? = nil) {
        self.clientID = clientID
        self.subject = subject
        self.scopes = scopes
        self.audience = audience
        self.credential = credential
        self.familyID = familyID
    }
}
