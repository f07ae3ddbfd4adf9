/// Why a DPoP proof (RFC 9449) was refused. The server answers each with `invalid_dpop_proof`
/// (or `use_dpop_nonce` for ``nonceRequired(_:)``); the description says which check failed.
public enum DPoPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS of three base64url parts, longer than ``DPoPProof/maximumLength``, or
    /// a header or claims that are not the JSON of a proof, for the reason given.
    case malformed(String)
    /// The header's `typ` is not `dpop+jwt`.
    case wrongType
    /// The header's `alg` is not `ES256`, or its `jwk` is not a P-256 public key.
    case unsupportedKey
    /// The `jwk` carries private key material.
    case privateKeyInHeader
    /// The signature does not verify under the header's key.
    case badSignature
    /// `htm` is not the request's method.
    case methodMismatch
    /// `htu` is not the request's URL (without query and fragment).
    case urlMismatch
    /// `iat` is too far in the past or the future.
    case issuedAtOutOfWindow
    /// The proof has no `ath`, or it is not the hash of the access token sent with it.
    case accessTokenHashMismatch
    /// The server wants its nonce in the proof: the string is the nonce to use.
    case nonceRequired(String)
    /// The proof's `jti` was already used within its window.
    case replayed
    /// The key is not the one the token is bound to.
    case keyMismatch

    public var description: String {
        switch self {
        case .malformed(let reason): "the DPoP proof is malformed: \(reason)"
        case .wrongType: "the DPoP proof's typ is not dpop+jwt"
        case .unsupportedKey: "the DPoP proof is not ES256 with a P-256 public key"
        case .privateKeyInHeader: "the DPoP proof's jwk carries a private key"
        case .badSignature: "the DPoP proof's signature does not verify"
        case .methodMismatch: "the DPoP proof is for another HTTP method"
        case .urlMismatch: "the DPoP proof is for another URL"
        case .issuedAtOutOfWindow: "the DPoP proof was issued too long ago or in the future"
        case .accessTokenHashMismatch: "the DPoP proof's ath is not the access token's hash"
        case .nonceRequired: "the DPoP proof must carry the server's nonce"
        case .replayed: "the DPoP proof was already used"
        case .keyMismatch: "the DPoP proof is signed by another key than the token is bound to"
        }
    }
}
