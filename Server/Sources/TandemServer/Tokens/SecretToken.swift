import Crypto
import Foundation

/// Random bearer secrets (refresh tokens, API keys) and the hash they are stored as.
///
/// A secret is 256 random bits, base64url without padding, behind a short prefix that says what
/// it is (`tdr_` refresh token, `tdk_` API key) so a leaked one is recognisable. A fast hash is
/// right for such values: there is nothing to brute-force in 2^256, and lookups by hash stay
/// one indexed query.
///
/// ```swift
/// let key = SecretToken.generate(.apiKey)        // "tdk_…", shown once
/// let stored = SecretToken.hash(key)             // what the database keeps
/// ```
public enum SecretToken {
    /// What a secret is for; decides its prefix.
    public enum Kind: String, Sendable {
        /// A refresh token.
        case refreshToken = "tdr_"
        /// An app's API key.
        case apiKey = "tdk_"
        /// A one-time authorization code.
        case authorizationCode = "tdc_"
        /// A browser session cookie of the login page.
        case browserSession = "tds_"
        /// The anti-forgery token of a login form.
        case loginForm = "tdf_"
    }

    /// A new random secret of `kind`.
    public static func generate(_ kind: Kind) -> String {
        kind.rawValue + SymmetricKey(size: .bits256).withUnsafeBytes { base64URL($0) }
    }

    /// The stored form of a secret: lowercase hex SHA-256 of its UTF-8 bytes.
    public static func hash(_ secret: String) -> String {
        hex(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Lowercase hex of `bytes` (without Foundation's per-byte formatting, which is slow).
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(64)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Base64url without padding (RFC 4648 §5), encoded directly (no Foundation string passes:
    /// this runs several times per token request).
    static func base64URL(_ data: some Collection<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let bytes = Array(data)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
            let chunk = UInt32(bytes[index]) << 16 | second << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            if remaining == 2 { output.append(alphabet[Int(chunk >> 6 & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url with or without padding; `nil` when it is not base64url.
    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }

    /// Compares two byte strings in time independent of where they differ.
    static func constantTimeEquals(_ lhs: some DataProtocol, _ rhs: some DataProtocol) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
