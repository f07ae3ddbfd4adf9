import Crypto
import Foundation

/// An app's APNs token-based credentials: the auth key Apple issued (a `.p8` file holding a
/// P-256 private key), its key id, the team it belongs to, and the app's bundle id (the
/// notifications' topic).
///
/// See Apple's "Establishing a token-based connection to APNs"
/// (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns).
struct APNsCredentials: Sendable {
    /// The key's 10-character identifier (the provider token's `kid`).
    var keyID: String
    /// The Apple developer team (the provider token's `iss`).
    var teamID: String
    /// The app's bundle id: the topic of its background pushes, and with
    /// `.push-type.widgets` appended, of its widget pushes.
    var bundleID: String
    /// The auth key.
    var privateKey: P256.Signing.PrivateKey

    /// Reads a `.p8` key file's text (PEM, PKCS #8).
    ///
    /// - Throws: ``APNsError/invalidKey(_:)`` for anything that is not a P-256 private key.
    static func privateKey(pem: String) throws(APNsError) -> P256.Signing.PrivateKey {
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .invalidKey("not a P-256 private key in PEM (an APNs .p8 file): \(error)")
        }
    }

    /// What a key id and a team id look like: ten upper-case letters or digits.
    static func isAppleIdentifier(_ value: String) -> Bool {
        value.utf8.count == 10 && value.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }
}
