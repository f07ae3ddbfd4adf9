import Crypto
import Hummingbird
import TandemProtocol

/// `GET /.well-known/oauth-authorization-server` (RFC 8414) and `GET /.well-known/jwks.json`
/// (RFC 7517): what a client or resource server needs to find the token endpoint and verify
/// access tokens. Both documents are fixed for the life of the process and may be cached for
/// five minutes (`Cache-Control: public, max-age=300`).
struct DiscoveryEndpoint: Sendable {
    /// The authorization server metadata.
    let metadata: AuthorizationServerMetadata
    /// The public signing key.
    let keySet: JSONWebKeySet

    /// Creates the endpoint for a server.
    ///
    /// - Parameters:
    ///   - issuer: The configured issuer URL.
    ///   - signingKey: The public half of the key that signs access tokens.
    ///   - keyID: The `kid` access tokens carry (``AccessTokenSigner/keyID``).
    init(issuer: String, signingKey: P256.Signing.PublicKey, keyID: String) {
        metadata = AuthorizationServerMetadata(issuer: issuer)
        keySet = JSONWebKeySet(publicKey: signingKey, keyID: keyID)
    }

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/.well-known/oauth-authorization-server") { _, _ in cacheable(metadata) }
        router.get("/.well-known/jwks.json") { _, _ in cacheable(keySet) }
    }

    private func cacheable(_ document: some Encodable) -> Response {
        var response = JSONResponse.make(document)
        response.headers[.cacheControl] = "public, max-age=300"
        return response
    }
}
