/// Why a request's credential was refused.
enum AuthorizationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `Authorization: Bearer …` nor `X-API-Key` was sent.
    case missingCredential
    /// The bearer token is malformed, badly signed, expired, from another issuer or for another
    /// audience; the message says which, without the token.
    case invalidToken(String)
    /// The token is DPoP-bound and the request's proof is missing or wrong; the message says
    /// which check failed.
    case invalidDPoPProof(String)
    /// The API key is unknown, revoked, or belongs to an app that does not use API keys.
    case invalidAPIKey(String)
    /// The credential is valid but lacks this scope.
    case insufficientScope(String)
    /// The credential could not be checked because storage failed.
    case unavailable(StorageError)

    /// A one-line message, safe for logs and error bodies.
    var description: String {
        switch self {
        case .missingCredential: "a bearer token (Authorization: Bearer) or an API key (X-API-Key) is required"
        case .invalidToken(let reason): "the access token is not valid: \(reason)"
        case .invalidAPIKey(let reason): "the API key is not valid: \(reason)"
        case .invalidDPoPProof(let reason): "the DPoP proof is not valid: \(reason)"
        case .insufficientScope(let scope): "the credential lacks the scope \(scope)"
        case .unavailable(let error): "the credential could not be checked: \(error)"
        }
    }
}
