/// The authorization server metadata document (RFC 8414 §2) served at
/// `/.well-known/oauth-authorization-server`. It advertises only what the server supports today.
struct AuthorizationServerMetadata: Encodable, Sendable {
    /// The issuer URL, identical to the `iss` of access tokens.
    let issuer: String
    /// Where `POST /oauth/token` is served.
    let tokenEndpoint: String
    /// Where the access tokens' verification key is published.
    let jwksURI: String
    /// The grant types `/oauth/token` accepts.
    let grantTypesSupported = ["refresh_token"]
    /// How clients authenticate at the token endpoint: public clients only, by `client_id`.
    let tokenEndpointAuthMethodsSupported = ["none"]
    /// Required by RFC 8414, but empty: there is no authorization endpoint yet. It fills in with
    /// `["code"]` (and the document gains `authorization_endpoint`) when `/oauth/authorize` lands.
    let responseTypesSupported: [String] = []
    /// The PKCE challenge methods accepted (RFC 7636); `plain` is never accepted.
    let codeChallengeMethodsSupported = ["S256"]

    /// The metadata of the server whose issuer URL is `issuer`; endpoint URLs are built under it.
    init(issuer: String) {
        self.issuer = issuer
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        tokenEndpoint = base + "/oauth/token"
        jwksURI = base + "/.well-known/jwks.json"
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case grantTypesSupported = "grant_types_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case responseTypesSupported = "response_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
    }
}
