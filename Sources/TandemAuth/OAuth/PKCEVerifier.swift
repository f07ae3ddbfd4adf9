import Crypto
import Foundation

/// A PKCE code verifier and its S256 challenge (RFC 7636). `plain` is never used.
///
/// ```swift
/// let verifier = PKCEVerifier()
/// authorizeURL += "&code_challenge=\(verifier.challenge)&code_challenge_method=S256"
/// // later: code_verifier=\(verifier.value) at the token endpoint
/// ```
public struct PKCEVerifier: Sendable, Equatable, CustomStringConvertible {
    /// The verifier, 43 to 128 characters of `[A-Za-z0-9-._~]`; a secret until the code is
    /// redeemed.
    public let value: String

    /// A fresh verifier: 32 random bytes in base64url (43 characters, 256 bits).
    public init() {
        var generator = SystemRandomNumberGenerator()
        value = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A verifier with a given value, such as the RFC 7636 appendix B one.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when `value` is not 43–128 unreserved
    ///   characters (RFC 7636 §4.1).
    public init(_ value: String) throws(AuthError) {
        let unreserved = value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
        guard unreserved, (43...128).contains(value.utf8.count) else {
            throw .invalidConfiguration("a PKCE verifier is 43 to 128 unreserved characters")
        }
        self.value = value
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))`, the `code_challenge` for method `S256`.
    public var challenge: String {
        Base64URL.encode(Array(SHA256.hash(data: Data(value.utf8))))
    }

    /// The challenge method, always `S256`.
    public static let method = "S256"

    /// Never the verifier.
    public var description: String { "PKCEVerifier(<redacted>)" }
}
