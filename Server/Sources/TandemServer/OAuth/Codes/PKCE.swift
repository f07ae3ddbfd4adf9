import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636), S256 only: `plain` would hand the verifier to
/// anyone who sees the authorization request.
public enum PKCE {
    /// The only method accepted.
    public static let method = "S256"

    /// Whether `verifier` is 43–128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"` (§4.1).
    public static func isValidVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy(isUnreserved)
    }

    /// Whether `challenge` has the shape of an S256 challenge: 43 base64url characters.
    public static func isValidChallenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy { isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))`.
    public static func challenge(for verifier: String) -> String {
        SecretToken.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
