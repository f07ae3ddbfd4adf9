#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform
import TandemProtocol

/// The DPoP key of one grant, kept in secret storage: the host's in its own keychain group, the
/// widgets' in the shared one, so a widget's stolen token is useless without the widget's key.
///
/// ```swift
/// let keys = DPoPKeyStore(secrets: sharedSecrets, name: "widgets", kinds: [SecureEnclaveDPoPKeyKind(), SoftwareDPoPKeyKind()])
/// let key = try keys.key()   // the stored one, or a new one of the first available kind
/// ```
///
/// A stored key that no longer works here (a backup restored to another phone, whose Secure
/// Enclave cannot use the blob) is replaced by a new one; the tokens bound to the old key then
/// fail, and the app signs in again, as it must on a new device.
public struct DPoPKeyStore: Sendable {
    private let secrets: any SecretStorage
    private let storageKey: String
    private let kinds: [any DPoPKeyKind]
    private let logger: Logger

    /// A store for the key called `name` in `secrets`.
    ///
    /// - Parameter kinds: The kinds to make a new key of, best first; the first available one
    ///   is used. A stored key of any of them is restored.
    public init(
        secrets: any SecretStorage, name: String, kinds: [any DPoPKeyKind] = [SoftwareDPoPKeyKind()],
        logger: Logger = Logger(label: "tandem.auth.dpop")
    ) {
        self.secrets = secrets
        storageKey = "tandem.dpop.\(name)"
        self.kinds = kinds
        self.logger = logger
    }

    /// The stored key, or a new one (stored before it is returned).
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when the storage fails or no kind is available.
    public func key() throws(AuthError) -> any DPoPSigner {
        let stored: Data?
        do {
            stored = try secrets.data(forKey: storageKey)
        } catch {
            throw .dpopKey("the DPoP key cannot be read: \(error)")
        }
        if let stored, let tag = stored.first, let kind = kinds.first(where: { $0.tag == tag }) {
            do {
                return try kind.restore(Data(stored.dropFirst()))
            } catch {
                logger.notice("the stored DPoP key does not work on this device; a new one replaces it", metadata: ["error": "\(error)"])
            }
        }
        return try replace()
    }

    /// Makes a new key of the first available kind and stores it, replacing any other.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)``.
    @discardableResult
    public func replace() throws(AuthError) -> any DPoPSigner {
        guard let kind = kinds.first(where: \.isAvailable) else { throw .dpopKey("no kind of DPoP key is available on this device") }
        do {
            let (signer, stored) = try kind.make()
            try secrets.set(Data([kind.tag]) + stored, forKey: storageKey)
            return signer
        } catch {
            throw .dpopKey("a new DPoP key cannot be made or stored: \(error)")
        }
    }

    /// Removes the key (at sign-out: the next grant gets a new one).
    ///
    /// - Throws: ``AuthError/dpopKey(_:)``.
    public func remove() throws(AuthError) {
        do {
            try secrets.removeData(forKey: storageKey)
        } catch {
            throw .dpopKey("the DPoP key cannot be removed: \(error)")
        }
    }
}
