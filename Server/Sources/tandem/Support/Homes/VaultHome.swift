import Foundation
import TandemPlatform
import TandemTool
import TandemVault

/// The directory layout the command line gives one vault, standing in for a host app's
/// private container and its App Group container:
///
/// ```
/// <dir>/host/<name>.sqlite   the vault file (host only)
/// <dir>/host/secrets/        the host's FileSecretStorage: device secret, primary share, …
/// <dir>/shared/secrets/      the extensions' FileSecretStorage: the auxiliary share only
/// ```
struct VaultHome: Sendable {
    /// The vault home given with `--dir`.
    let root: URL
    /// The host's private directory, holding the vault file.
    let hostDirectory: URL
    /// The host's private secret storage.
    let hostSecrets: FileSecretStorage
    /// The secret storage shared with extensions.
    let sharedSecrets: FileSecretStorage
    /// The vault, not yet opened.
    let vault: Vault

    /// Builds the vault and both storages under `root`, creating the directories if needed.
    ///
    /// - Parameters:
    ///   - root: The vault home.
    ///   - name: The vault's name: its file is `<name>.sqlite`.
    init(root: URL, name: String = "vault") throws(SecretStorageError) {
        self.root = root
        hostDirectory = root.appendingPathComponent("host", isDirectory: true)
        hostSecrets = try FileSecretStorage(directory: hostDirectory.appendingPathComponent("secrets", isDirectory: true))
        sharedSecrets = try FileSecretStorage(
            directory: root.appendingPathComponent("shared", isDirectory: true).appendingPathComponent("secrets", isDirectory: true))
        vault = Vault(directory: hostDirectory, secrets: hostSecrets, name: name, logger: ToolLogger.make(label: "tandem.vault"))
    }

    /// The share an extension would send with its request, read from the shared storage.
    ///
    /// - Throws: `CommandFailure` when extension access is not enabled.
    func auxiliaryShare() throws -> AuxiliaryShare {
        guard let share = try AuxiliaryShare.load(from: sharedSecrets, vaultName: vault.name) else {
            throw CommandFailure("extension access is not enabled: no auxiliary share in \(sharedSecrets.directory.path)")
        }
        return share
    }
}
