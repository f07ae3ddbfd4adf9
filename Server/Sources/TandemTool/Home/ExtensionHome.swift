#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgets

/// The directories `tandem host` and `tandem widget` share, laid out as an app, its widget and
/// their App Group container would have them on a phone:
///
/// ```
/// <dir>/host/               the host's private container: the vault, the host's secrets and the
///                           lease of the user's own token refresh (host/leases/)
/// <dir>/widget/             the widget's private directory
/// <dir>/shared/secrets/     the extensions' secret storage (shared keychain on a phone): the
///                           auxiliary share and the shared sealing key
/// <dir>/shared/container/   the shared container: status, requests, snapshots, grant, leases
/// <dir>/shared/client.json  the app's client configuration (not secret)
/// ```
///
/// The host and each widget are separate processes; they meet only in `shared/`.
public struct ExtensionHome: Sendable {
    /// The root of the layout.
    public let root: URL
    /// The host's private container (`host/`); only `tandem host` opens what is inside.
    public let hostDirectory: URL
    /// The extensions' secret storage (`shared/secrets/`).
    public let sharedSecrets: FileSecretStorage
    /// The name of the host's vault, under which the auxiliary share is kept.
    public let vaultName: String
    /// The widget's private directory.
    public let widgetDirectory: URL
    /// The shared container.
    public let container: SharedContainer
    /// Where the client configuration is kept.
    public let clientConfigurationURL: URL

    /// Opens (and creates, if needed) the layout under `root`.
    public init(root: URL, vaultName: String = "vault") throws {
        self.root = root
        self.vaultName = vaultName
        hostDirectory = root.appendingPathComponent("host", isDirectory: true)
        let shared = root.appendingPathComponent("shared", isDirectory: true)
        sharedSecrets = try FileSecretStorage(directory: shared.appendingPathComponent("secrets", isDirectory: true))
        widgetDirectory = root.appendingPathComponent("widget", isDirectory: true)
        try FileManager.default.createDirectory(at: widgetDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        container = try SharedContainer(
            directory: shared.appendingPathComponent("container", isDirectory: true), logger: ToolLogger.make(label: "tandem.container"))
        clientConfigurationURL = shared.appendingPathComponent("client.json", isDirectory: false)
    }

    // MARK: - Client configuration

    /// Saves the app's client configuration for the widget to read.
    public func saveClientConfiguration(_ configuration: ClientConfiguration) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(configuration).write(to: clientConfigurationURL, options: .atomic)
    }

    /// The app's client configuration, as the host saved it at onboarding.
    ///
    /// - Throws: ``CommandFailure`` when the host has not onboarded yet.
    public func clientConfiguration() throws -> ClientConfiguration {
        guard let data = try? Data(contentsOf: clientConfigurationURL) else {
            throw CommandFailure("no client configuration in \(clientConfigurationURL.path): run `tandem host onboard` first")
        }
        return try JSONDecoder().decode(ClientConfiguration.self, from: data)
    }

    // MARK: - Extension credentials

    /// The share and shared sealing key a widget sends requests with, from the extensions' storage.
    ///
    /// - Throws: ``CommandFailure`` when the host has not enabled extension access.
    public func extensionCredentials() throws -> (share: AuxiliaryShare, sealingKey: SharedSealingKey) {
        guard let share = try AuxiliaryShare.load(from: sharedSecrets, vaultName: vaultName) else {
            throw CommandFailure("no auxiliary share in \(sharedSecrets.directory.path): run `tandem host onboard` first")
        }
        guard let sealingKey = try SharedSealingKey.load(from: sharedSecrets) else {
            throw CommandFailure("no shared sealing key in \(sharedSecrets.directory.path): run `tandem host onboard` first")
        }
        return (share, sealingKey)
    }
}

extension ExtensionHome {
    /// The app's URL scheme, for widget tap links: the configured one, else the redirect URI's.
    ///
    /// - Throws: ``CommandFailure`` when the configuration names neither.
    public func urlScheme() throws -> String {
        let configuration = try clientConfiguration()
        guard let scheme = configuration.urlScheme ?? configuration.redirectURI?.scheme else {
            throw CommandFailure("the client configuration has no url_scheme and no redirect_uri")
        }
        return scheme
    }
}
