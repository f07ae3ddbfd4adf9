import Crypto
import Foundation
import TandemProtocol

/// A JWK Set (RFC 7517 §5) holding the server's public ES256 signing key, served at
/// `/.well-known/jwks.json` so resource servers can verify access tokens without the database.
struct JSONWebKeySet: Encodable, Sendable {
    /// The published keys; today exactly one.
    let keys: [Key]

    /// The set holding `publicKey` under `keyID`, the `kid` that access tokens carry in their header.
    init(publicKey: P256.Signing.PublicKey, keyID: String) {
        keys = [Key(publicKey: publicKey, keyID: keyID)]
    }

    /// One public P-256 key (RFC 7518 §6.2.1), for signatures only.
    struct Key: Encodable, Sendable {
        /// Always `EC`.
        let kty = "EC"
        /// Always `P-256`.
        let crv = "P-256"
        /// The x coordinate, 32 bytes, base64url without padding.
        let x: String
        /// The y coordinate, 32 bytes, base64url without padding.
        let y: String
        /// Always `sig`.
        let use = "sig"
        /// Always `ES256`.
        let alg = "ES256"
        /// The key id, matching the access tokens' header.
        let kid: String

        /// The JWK of `publicKey`; its raw representation is x‖y.
        init(publicKey: P256.Signing.PublicKey, keyID: String) {
            let raw = publicKey.rawRepresentation
            x = Base64URL.encode(raw.prefix(32))
            y = Base64URL.encode(raw.suffix(32))
            kid = keyID
        }

        enum CodingKeys: String, CodingKey {
            case kty, crv, x, y, use, alg, kid
        }
    }
}
