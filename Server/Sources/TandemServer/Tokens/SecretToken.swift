import Crypto
import Foundation
import TandemProtocol

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
enum SecretToken {
    /// What a secret is for; decides its prefix.
    enum Kind: String, Sendable {
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
        /// A one-time SSO onboarding passcode (the desktop page's QR code).
        case ssoPasscode = "tdp_"
        /// The secret a phone chooses when it claims an SSO passcode.
        case ssoDevice = "tdv_"
    }

    /// A new random secret of `kind`.
    static func generate(_ kind: Kind) -> String {
        kind.rawValue + SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode($0) }
    }

    /// The stored form of a secret: lowercase hex SHA-256 of its UTF-8 bytes.
    static func hash(_ secret: String) -> String {
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
}
