import Crypto

/// A provider's APNs authentication key as the stand-in knows it: the key id Apple shows beside the
/// downloaded `.p8` file, the team that owns it, and the public half that checks the provider tokens
/// signed with it.
///
/// ```swift
/// let signingKey = P256.Signing.PrivateKey()
/// let key = APNsStandInProviderKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: signingKey.publicKey)
/// ```
///
/// See Apple's "Establishing a token-based connection to APNs":
/// https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns
public struct APNsStandInProviderKey: Sendable {
    /// The key id, the provider token header's `kid`.
    public let keyID: String
    /// The team id, the provider token's `iss` claim.
    public let teamID: String
    /// The P-256 public key that verifies the tokens' ES256 signatures.
    public let publicKey: P256.Signing.PublicKey

    /// A key the stand-in accepts provider tokens from.
    ///
    /// - Parameters:
    ///   - keyID: The key id (`kid`) tokens name in their header.
    ///   - teamID: The team id tokens carry in their `iss` claim.
    ///   - publicKey: The public half of the key the tokens are signed with.
    public init(keyID: String, teamID: String, publicKey: P256.Signing.PublicKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
    }

    /// A key read from PEM text: the private `.p8` file Apple hands out (its public half is derived)
    /// or a public key in PEM.
    ///
    /// - Parameters:
    ///   - keyID: The key id (`kid`) tokens name in their header.
    ///   - teamID: The team id tokens carry in their `iss` claim.
    ///   - pem: A PKCS#8 P-256 private key or a P-256 public key, in PEM.
    /// - Throws: ``APNsStandInError/invalidProviderKey(keyID:)`` when `pem` holds neither.
    public init(keyID: String, teamID: String, pem: String) throws(APNsStandInError) {
        if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self.init(keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey)
        } else if let publicKey = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            self.init(keyID: keyID, teamID: teamID, publicKey: publicKey)
        } else {
            throw .invalidProviderKey(keyID: keyID)
        }
    }
}
