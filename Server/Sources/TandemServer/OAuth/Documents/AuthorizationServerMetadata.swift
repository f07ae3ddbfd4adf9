import TandemProtocol
/// The RFC 8414 authorization server metadata served at `/.well-known/oauth-authorization-server`.
struct AuthorizationServerMetadata: Encodable, Sendable {
    /// The issuer URL, as in access tokens' `iss`.
    let issuer: String
    /// Where the sign-in form and authorization codes are (`/oauth/authorize`).
    let authorizationEndpoint: String
    /// Where tokens are requested (`/oauth/token`).
    let tokenEndpoint: String
    /// RFC 7009 revocation.
    let revocationEndpoint: String
    /// RFC 7662 introspection.
    let introspectionEndpoint: String
    /// The access tokens' public keys.
    let jwksURI: String
    /// Grant types the token endpoint accepts.
    let grantTypesSupported = GrantType.allCases.map(\.rawValue)
    /// Public clients only: no client secret at the token and revocation endpoints.
    let tokenEndpointAuthMethodsSupported = ["none"]
    /// Revocation needs no client authentication either (the client id is sent).
    let revocationEndpointAuthMethodsSupported = ["none"]
    /// Introspection callers authenticate with an app's API key (`X-API-Key` or Basic).
    let introspectionEndpointAuthMethodsSupported = ["client_secret_basic"]
    /// Only the authorization code flow.
    let responseTypesSupported = ["code"]
    /// PKCE with S256 only; `plain` is refused.
    let codeChallengeMethodsSupported = [PKCE.method]
    /// The scopes this server grants.
    let scopesSupported = OAuthScope.all.sorted()

    /// Metadata for an issuer; endpoints live under the issuer URL.
    init(issuer: String) {
        self.issuer = issuer
        let urls = ServerURLs(issuer: issuer)
        authorizationEndpoint = urls.authorization
        tokenEndpoint = urls.token
        revocationEndpoint = urls.revocation
        introspectionEndpoint = urls.introspection
        jwksURI = urls.jwks
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case jwksURI = "jwks_uri"
        case grantTypesSupported = "grant_types_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case responseTypesSupported = "response_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case scopesSupported = "scopes_supported"
    }
}
