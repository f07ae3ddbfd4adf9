import TandemAuth
import TandemPlatform
import TandemSharedContainer

/// The secrets a business widget needs: the auxiliary share (it opens snapshots and, with the
/// host's half, the vault), in brokered mode the shared sealing key its requests are sealed
/// under, and in direct mode the widgets' DPoP key, when the app binds their grant to one.
public struct WidgetCredentials: Sendable {
    /// The extensions' auxiliary share.
    public var share: AuxiliaryShare
    /// The key requests are sealed under; `nil` when the host has not provisioned it yet
    /// (direct mode does without it).
    public var sealingKey: SharedSealingKey?
    /// Where the widgets' DPoP key is read when their grant is bound to it (read only then:
    /// a bearer grant never touches it); `nil` when there is none.
    public var dpopKey: (any DPoPKeyProvider)?

    /// Credentials of `share`, `sealingKey` and `dpopKey`.
    public init(share: AuxiliaryShare, sealingKey: SharedSealingKey?, dpopKey: (any DPoPKeyProvider)? = nil) {
        self.share = share
        self.sealingKey = sealingKey
        self.dpopKey = dpopKey
    }
}

/// Why a widget's secrets cannot be read now. The user is not signed out: the widget keeps
/// its last content, marked unavailable, and tries again later.
public enum WidgetCredentialError: Error, Hashable, Sendable {
    /// The secret storage cannot be read yet (the device has not been unlocked since it
    /// started, the keychain is busy) or holds a damaged secret. `reason` is for logs.
    case unreadable(reason: String)
}

/// Where a ``DataWidgetProvider`` gets its ``WidgetCredentials``.
///
/// ``SharedSecretCredentials`` reads them from the secret storage shared with the host; a test
/// or an app with its own keychain code supplies another source.
///
/// ```swift
/// struct LockedDevice: WidgetCredentialSource {
///     func credentials() throws(WidgetCredentialError) -> WidgetCredentials? {
///         throw .unreadable(reason: "before first unlock")
///     }
/// }
/// ```
public protocol WidgetCredentialSource: Sendable {
    /// The credentials, or `nil` when the host has not enabled extension access (nobody signed
    /// in yet, or the app was not opened since the widget was added).
    ///
    /// - Throws: ``WidgetCredentialError/unreadable(reason:)`` when they exist but cannot be
    ///   read now.
    func credentials() throws(WidgetCredentialError) -> WidgetCredentials?
}

/// Reads a widget's credentials from the `SecretStorage` the host shares with its
/// extensions (a shared keychain group on Apple, a `0600` directory elsewhere).
///
/// ```swift
/// let source = SharedSecretCredentials(storage: KeychainSecretStorage(accessGroup: group))
/// ```
public struct SharedSecretCredentials: WidgetCredentialSource {
    /// The storage shared with the host.
    public let storage: any SecretStorage
    /// The name of the host's vault, whose share is read.
    public let vaultName: String

    /// A source reading `storage` for the vault `vaultName`.
    public init(storage: any SecretStorage, vaultName: String = "vault") {
        self.storage = storage
        self.vaultName = vaultName
    }

    /// The share and shared sealing key in the storage, and the widgets' DPoP key there (which
    /// the host makes; a widget never makes one); see ``WidgetCredentialSource/credentials()``.
    public func credentials() throws(WidgetCredentialError) -> WidgetCredentials? {
        let share: AuxiliaryShare?
        do {
            share = try AuxiliaryShare.load(from: storage, vaultName: vaultName)
        } catch {
            throw .unreadable(reason: error.description)
        }
        guard let share else { return nil }
        do {
            return WidgetCredentials(
                share: share, sealingKey: try SharedSealingKey.load(from: storage),
                dpopKey: DPoPKeyStore.widgets(in: storage, makesMissingKey: false))
        } catch {
            throw .unreadable(reason: error.description)
        }
    }
}
