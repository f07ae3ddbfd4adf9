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
/// let hostKey = DPoPKeyStore.host(in: hostSecrets)                 // Secure Enclave where there is one
/// let widgetsKey = DPoPKeyStore.widgets(in: sharedSecrets)         // software, in the shared group
/// let key = try hostKey.key()   // the stored one, or a new one of the first available kind
/// ```
///
/// <doc:BindingTokensToAKey> says which key signs what, and why the widgets' key is a software
/// key.
///
/// A stored key that no longer works here (a backup restored to another phone, whose Secure
/// Enclave cannot use the blob) is replaced by a new one; the tokens bound to the old key then
/// fail, and the app signs in again, as it must on a new device.
public struct DPoPKeyStore: Sendable {
    private let secrets: any SecretStorage
    private let storageKey: String
    private let kinds: [any DPoPKeyKind]
    private let makesMissingKey: Bool
    private let logger: Logger

    /// The name of the host's key (the user's grant).
    public static let hostKeyName = "host"
    /// The name of the widgets' key (the extension grant).
    public static let widgetsKeyName = "widgets"

    /// A store for the key called `name` in `secrets`.
    ///
    /// - Parameters:
    ///   - kinds: The kinds to make a new key of, best first; the first available one is used.
    ///     A stored key of any of them is restored.
    ///   - makesMissingKey: Whether ``key()`` makes a key when none is stored (or the stored one
    ///     no longer works). `false` for a process that only uses a key another one made: a
    ///     widget must sign with the key its grant was bound to, never one of its own.
    ///   - logger: Receives a line when an unusable stored key is replaced.
    public init(
        secrets: any SecretStorage, name: String, kinds: [any DPoPKeyKind] = [SoftwareDPoPKeyKind()],
        makesMissingKey: Bool = true, logger: Logger = Logger(label: "tandem.auth.dpop")
    ) {
        self.secrets = secrets
        storageKey = "tandem.dpop.\(name)"
        self.kinds = kinds
        self.makesMissingKey = makesMissingKey
        self.logger = logger
    }

    /// The host's key in the host's own secret storage (its private keychain group): a Secure
    /// Enclave key where the device has one (the private key never leaves the chip), a software
    /// key otherwise and on Linux.
    ///
    /// - Parameter makesMissingKey: `false` to only use a stored key, as for a grant already
    ///   bound to it (a new key could not use that grant).
    public static func host(in secrets: any SecretStorage, makesMissingKey: Bool = true) -> DPoPKeyStore {
        DPoPKeyStore(secrets: secrets, name: hostKeyName, kinds: hostKinds, makesMissingKey: makesMissingKey)
    }

    /// The widgets' key in the secret storage the host shares with its extensions (the shared
    /// keychain group): a software key, which every process of the group can use. The host makes
    /// it (`makesMissingKey`, before the token exchange that binds the widgets' grant to it);
    /// a widget only reads it.
    public static func widgets(in sharedSecrets: any SecretStorage, makesMissingKey: Bool = true) -> DPoPKeyStore {
        DPoPKeyStore(secrets: sharedSecrets, name: widgetsKeyName, kinds: [SoftwareDPoPKeyKind()], makesMissingKey: makesMissingKey)
    }

    /// The kinds of the host's key, best first.
    public static var hostKinds: [any DPoPKeyKind] {
        #if canImport(CryptoKit) && canImport(Security)
        [SecureEnclaveDPoPKeyKind(), SoftwareDPoPKeyKind()]
        #else
        [SoftwareDPoPKeyKind()]
        #endif
    }

    /// The stored key, or a new one (stored before it is returned) unless the store was made
    /// without `makesMissingKey`.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when the storage fails, no kind is available, or
    ///   (without `makesMissingKey`) no usable key is stored.
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
                guard makesMissingKey else { throw .dpopKey("the stored DPoP key \(storageKey) does not work here: \(error)") }
                logger.notice("the stored DPoP key does not work on this device; a new one replaces it", metadata: ["error": "\(error)"])
            }
        }
        guard makesMissingKey else { throw .dpopKey("no usable DPoP key \(storageKey) is stored") }
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
