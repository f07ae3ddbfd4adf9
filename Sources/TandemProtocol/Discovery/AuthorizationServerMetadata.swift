/// The RFC 8414 authorization server metadata, served at ``APIPath/serverMetadata``.
///
/// The server fills every field (`init(issuer:)`); a client reads what it uses and, because
/// RFC 8414 makes them optional, accepts a document from another OAuth server without the
/// optional ones. URLs are kept as the server wrote them: the issuer is compared with tokens'
/// `iss` character for character, so nothing here normalises it.
///
/// ```swift
/// let metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: body)
/// let tokenURL = URL(string: metadata.tokenEndpoint)
/// ```
public struct AuthorizationServerMetadata: Codable, Hashable, Sendable {
    /// The issuer URL, as in access tokens' `iss`.
    public var issuer: String
    /// Where the sign-in form and authorization codes are (``APIPath/authorization``).
    public var authorizationEndpoint: String?
    /// Where tokens are requested (``APIPath/token``).
    public var tokenEndpoint: String
    /// RFC 7009 revocation.
    public var revocationEndpoint: String?
    /// RFC 7662 introspection.
    public var introspectionEndpoint: String?
    /// The access tokens' public keys.
    public var jwksURI: String?
    /// The grant types the token endpoint accepts.
    public var grantTypesSupported: [String]?
    /// How clients authenticate at the token endpoint (`none`: public clients).
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// How clients authenticate at the revocation endpoint.
    public var revocationEndpointAuthMethodsSupported: [String]?
    /// How callers authenticate at the introspection endpoint.
    public var introspectionEndpointAuthMethodsSupported: [String]?
    /// The response types of the authorization endpoint.
    public var responseTypesSupported: [String]?
    /// The PKCE methods the server accepts.
    public var codeChallengeMethodsSupported: [String]?
    /// The scopes the server grants.
    public var scopesSupported: [String]?
    /// The algorithms of the DPoP proofs the server accepts (RFC 9449 §5.1).
    public var dpopSigningAlgValuesSupported: [String]?

    /// Tandem's metadata for `issuer`: every endpoint under it, public clients with PKCE S256,
    /// the authorization code flow, every ``GrantType`` and every ``OAuthScope``; DPoP proofs in
    /// ES256.
    public init(issuer: String) {
        self.issuer = issuer
        authorizationEndpoint = APIPath.absolute(APIPath.authorization, issuer: issuer)
        tokenEndpoint = APIPath.absolute(APIPath.token, issuer: issuer)
        revocationEndpoint = APIPath.absolute(APIPath.revocation, issuer: issuer)
        introspectionEndpoint = APIPath.absolute(APIPath.introspection, issuer: issuer)
        jwksURI = APIPath.absolute(APIPath.jwks, issuer: issuer)
        grantTypesSupported = GrantType.allCases.map(\.rawValue)
        tokenEndpointAuthMethodsSupported = ["none"]
        revocationEndpointAuthMethodsSupported = ["none"]
        // Introspection callers authenticate with an app's API key (`X-API-Key` or Basic).
        introspectionEndpointAuthMethodsSupported = ["client_secret_basic"]
        responseTypesSupported = ["code"]
        codeChallengeMethodsSupported = [PKCE.method]
        scopesSupported = OAuthScope.all.sorted()
        dpopSigningAlgValuesSupported = [DPoPProof.algorithm]
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
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
    }
}
