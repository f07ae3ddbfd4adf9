import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault

/// A host and its widget laid out as on a device for brokered fulfilment, in a fresh temporary
/// directory: the host's private vault and secrets, the secret storage shared with the widget,
/// and the shared container.
final class BrokeredHome {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-brokered-home-\(UUID().uuidString)")
    let recorder = LogCapture()
    var containerDirectory: URL { root.appendingPathComponent("container") }
    let hostSecrets: FileSecretStorage
    let sharedSecrets: FileSecretStorage

    static let refreshToken = Data("refresh-token-of-the-user-0123456789".utf8)

    init() throws {
        hostSecrets = try FileSecretStorage(directory: root.appendingPathComponent("host-secrets"))
        sharedSecrets = try FileSecretStorage(directory: root.appendingPathComponent("shared-secrets"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The shared container, as either process opens it; it logs into ``recorder``.
    func container() throws -> SharedContainer { try SharedContainer(directory: containerDirectory, logger: recorder.logger) }

    /// A new `Vault` instance over the host's vault.
    func vault() -> Vault { Vault(directory: root.appendingPathComponent("host"), secrets: hostSecrets) }

    /// A passcode vault (cheap scrypt) holding ``refreshToken``, with extension access enabled,
    /// locked — as the host leaves it when it goes to the background.
    func preparedVault() throws -> Vault {
        let vault = vault()
        try vault.create(passcode: "correct-horse-7", policy: PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100),
                         cost: .fixed(log2N: 10, r: 8, p: 1))
        try vault.set(Self.refreshToken, forKey: "refresh-token")
        try vault.enableExtensionAccess(shared: sharedSecrets)
        vault.lock()
        return vault
    }

    /// The shared sealing key, as the host provisions it (the first call) and the widget loads it.
    func sealingKey() throws -> SharedSealingKey { try SharedSealingKey.provision(in: sharedSecrets) }

    /// The widget's share, as it loads it.
    func share() throws -> AuxiliaryShare {
        guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { throw VaultError.extensionAccessNotEnabled }
        return share
    }

    /// Every regular file under the shared container, with its bytes.
    func containerFiles() throws -> [(URL, Data)] { try regularFiles(under: containerDirectory) }
}

/// A request key as a widget's configuration gives it.
struct EntityKey: Codable, Equatable {
    var destination: String
    var entitySet: String
}

extension AuxiliaryShare {
    /// A fresh random share, as `Vault.enableExtensionAccess` would make, for a request the
    /// host's vault must refuse.
    static func random() throws -> AuxiliaryShare {
        try AuxiliaryShare(keyID: Data((0..<16).map { _ in UInt8.random(in: 0...255) }), bytes: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }
}
