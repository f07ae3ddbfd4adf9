import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of Proof Key for Code Exchange (RFC 7636) that the client and the authorization
/// server share. S256 only: `plain` would hand the verifier to anyone who sees the
/// authorization request.
///
/// ```swift
/// let challenge = PKCE.challenge(for: verifier)            // sent with the authorization request
/// let accepted = PKCE.verify(verifier, matches: challenge)  // checked when the code is redeemed
/// ```
public enum PKCE {
    /// The only challenge method, `S256`.
    public static let method = "S256"

    /// The allowed lengths of a verifier, in characters (§4.1).
    public static let verifierLengths = 43...128

    /// Whether `verifier` is 43–128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"` (§4.1).
    public static func isValidVerifier(_ verifier: String) -> Bool {
        verifierLengths.contains(verifier.utf8.count) && verifier.utf8.allSatisfy(isUnreserved)
    }

    /// Whether `challenge` has the shape of an S256 challenge: 43 base64url characters (the
    /// unpadded encoding of 32 bytes).
    public static func isValidChallenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy { isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))`, the S256 `code_challenge` of `verifier` (§4.2).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    /// Whether `verifier` is a valid verifier whose S256 challenge is `challenge` (§4.6),
    /// compared in constant time.
    public static func verify(_ verifier: String, matches challenge: String) -> Bool {
        isValidVerifier(verifier) && ConstantTime.equals(Self.challenge(for: verifier), challenge)
    }

    /// Whether `byte` is an unreserved URI character (RFC 3986 §2.3).
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
