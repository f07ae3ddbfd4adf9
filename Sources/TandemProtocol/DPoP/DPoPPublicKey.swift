import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A P-256 public key as a DPoP proof carries it (a JWK, RFC 7517), and its JWK SHA-256
/// thumbprint (RFC 7638): the `jkt` that binds tokens to the key (`cnf.jkt`, RFC 9449 §6).
public struct DPoPPublicKey: Sendable, Hashable {
    /// The key.
    public let key: P256.Signing.PublicKey
    /// `x`, base64url (32 bytes).
    public let x: String
    /// `y`, base64url (32 bytes).
    public let y: String

    /// The JWK of `key`.
    public init(_ key: P256.Signing.PublicKey) {
        self.key = key
        let raw = key.rawRepresentation
        x = Base64URL.encode(raw.prefix(32))
        y = Base64URL.encode(raw.suffix(32))
    }

    /// The key a JWK names.
    ///
    /// - Throws: ``DPoPError/unsupportedKey`` unless `kty` is `EC`, `crv` is `P-256` and `x`
    ///   and `y` are 32 bytes each of a point on the curve; ``DPoPError/privateKeyInHeader``
    ///   when it has `d`.
    public init(jwk: [String: JSONValue]) throws(DPoPError) {
        guard jwk["d"] == nil else { throw .privateKeyInHeader }
        guard jwk["kty"] == .string("EC"), jwk["crv"] == .string("P-256"),
            case .string(let x) = jwk["x"], case .string(let y) = jwk["y"],
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y), xBytes.count == 32, yBytes.count == 32,
            let key = try? P256.Signing.PublicKey(rawRepresentation: xBytes + yBytes)
        else { throw .unsupportedKey }
        self.key = key
        self.x = Base64URL.encode(xBytes)
        self.y = Base64URL.encode(yBytes)
    }

    /// The JWK (`kty`, `crv`, `x`, `y`), for a proof's header or a key registration
    /// (``StepUpKeyDocument``).
    public var jwk: JSONValue {
        .object(["kty": .string("EC"), "crv": .string("P-256"), "x": .string(x), "y": .string(y)])
    }

    /// The JWK SHA-256 thumbprint (RFC 7638 §3): base64url(SHA-256 of the required members
    /// `crv`, `kty`, `x`, `y` in that order, without white space).
    public var thumbprint: String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }

    public static func == (lhs: DPoPPublicKey, rhs: DPoPPublicKey) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }
}
