#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// A PKCE code verifier and its S256 challenge, following the shared `PKCE` rules (RFC 7636).
/// `plain` is never used.
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
        guard PKCE.isValidVerifier(value) else {
            throw .invalidConfiguration("a PKCE verifier is 43 to 128 unreserved characters")
        }
        self.value = value
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))`, the `code_challenge` for method `S256`.
    public var challenge: String { PKCE.challenge(for: value) }

    /// Never the verifier.
    public var description: String { "PKCEVerifier(<redacted>)" }
}
