import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The compact ES256 JWS that Tandem's key-bound proofs share (``DPoPProof``, ``StepUpProof``):
/// a header `{"typ", "alg": "ES256", "jwk"}` naming the P-256 public key that signed it, JSON
/// claims, and the raw r ‖ s signature, each part base64url without padding.
///
/// Written once, so every proof is signed and read the same way; each proof checks its own
/// claims.
enum CompactJWS {
    /// The only algorithm: ES256 (P-256), which the Secure Enclave signs with.
    static let algorithm = "ES256"

    /// A signed JWS of type `type` over `claims`, by `signer`, with its public key in the header.
    ///
    /// - Throws: What `signer` throws, or an encoding error.
    static func sign(type: String, claims: [String: JSONValue], signer: some DPoPSigner) throws -> String {
        let header: JSONValue = .object(["typ": .string(type), "alg": .string(algorithm), "jwk": signer.publicKey.jwk])
        let input = try encodedPart(header) + "." + encodedPart(.object(claims))
        return input + "." + Base64URL.encode(try signer.signature(for: Data(input.utf8)))
    }

    /// The key and the claims of a JWS of type `type` whose signature verifies under the key in
    /// its header.
    ///
    /// - Parameters:
    ///   - compact: The JWS.
    ///   - type: The `typ` it must have.
    ///   - maximumLength: The longest JWS read, in bytes.
    /// - Throws: ``DPoPError/malformed(_:)``, ``DPoPError/wrongType``,
    ///   ``DPoPError/unsupportedKey``, ``DPoPError/privateKeyInHeader`` or
    ///   ``DPoPError/badSignature``, naming the first check that failed.
    static func verified(
        _ compact: String, type: String, maximumLength: Int
    ) throws(DPoPError) -> (publicKey: DPoPPublicKey, claims: [String: JSONValue]) {
        guard compact.utf8.count <= maximumLength else { throw .malformed("longer than \(maximumLength) bytes") }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])), let claimBytes = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2]))
        else { throw .malformed("not three base64url parts") }
        guard case .object(let header) = try json(headerBytes, part: "header"),
            case .object(let claims) = try json(claimBytes, part: "claims")
        else { throw .malformed("the header or the claims are not JSON objects") }
        guard header["typ"] == .string(type) else { throw .wrongType }
        guard header["alg"] == .string(algorithm), case .object(let jwk) = header["jwk"] else { throw .unsupportedKey }
        let key = try DPoPPublicKey(jwk: jwk)
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { throw .badSignature }
        return (key, claims)
    }

    /// 16 random bytes, base64url: a fresh `jti`.
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The value of an optional string claim.
    ///
    /// - Throws: ``DPoPError/malformed(_:)`` when it is there and not a string.
    static func optionalString(_ value: JSONValue?, name: String) throws(DPoPError) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        default: throw .malformed("\(name) is not a string")
        }
    }

    private static func encodedPart(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(value))
    }

    private static func json(_ bytes: Data, part: String) throws(DPoPError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: bytes)
        } catch {
            throw .malformed("the \(part) is not JSON")
        }
    }
}
