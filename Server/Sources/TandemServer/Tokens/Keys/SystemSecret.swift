import Crypto
import Foundation

/// The secret the server's own keys are sealed under in the database, kept outside it (an
/// environment variable or a `0600` file), as ORY Hydra keeps its system secret.
///
/// Whoever can read the database but not the secret cannot mint access tokens or open sealed
/// successors. To rotate it, start the server with the new secret as current and the old one
/// as previous: keys sealed under a previous secret are opened and sealed again under the
/// current one, so tokens signed before the rotation keep verifying.
///
/// ```swift
/// let secret = SystemSecret(current: newSecret, previous: [oldSecret])
/// let keys = try await ServerKeys.load(from: storage, secret: secret)
/// ```
public struct SystemSecret: Sendable {
    /// The fewest bytes a secret given by an operator may have.
    public static let minimumLength = 16

    /// The key that seals, derived from the current secret.
    let current: SymmetricKey
    /// The keys of earlier secrets, which only open.
    let previous: [SymmetricKey]

    /// A secret and the secrets it replaces, newest first.
    ///
    /// Each text is stretched with HKDF-SHA256 into a 256-bit AES key; a secret is expected to be
    /// random (the generated one is 32 random bytes), not a password.
    ///
    /// - Parameters:
    ///   - current: The secret new seals are made under.
    ///   - previous: Secrets that may still have sealed stored keys.
    public init(current: String, previous: [String] = []) {
        self.current = Self.derive(current)
        self.previous = previous.map(Self.derive)
    }

    /// Every key that may open a stored key: the current one first.
    var openingKeys: [SymmetricKey] { [current] + previous }

    private static func derive(_ text: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(text.utf8)),
            salt: Data("tandem.system-secret.v1".utf8), info: Data("server-keys".utf8), outputByteCount: 32)
    }
}
