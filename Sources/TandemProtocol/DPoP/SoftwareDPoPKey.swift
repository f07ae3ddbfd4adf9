import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A DPoP key held in memory: for Linux, for tests, and for devices without a Secure Enclave.
/// Keep its ``rawRepresentation`` in secret storage, never in a plain file.
public struct SoftwareDPoPKey: DPoPSigner {
    private let key: P256.Signing.PrivateKey

    /// A new random key.
    public init() {
        key = P256.Signing.PrivateKey()
    }

    /// The key whose private scalar is `rawRepresentation` (32 bytes).
    ///
    /// - Throws: ``DPoPError/unsupportedKey`` for bytes that are not a P-256 private key.
    public init(rawRepresentation: Data) throws(DPoPError) {
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw .unsupportedKey
        }
    }

    /// The private scalar, to keep in secret storage.
    public var rawRepresentation: Data { key.rawRepresentation }

    public var publicKey: DPoPPublicKey { DPoPPublicKey(key.publicKey) }

    public func signature(for message: Data) throws -> Data {
        try key.signature(for: message).rawRepresentation
    }
}
