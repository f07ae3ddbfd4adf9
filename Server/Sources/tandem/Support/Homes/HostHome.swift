import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemTool
import TandemVault

/// The app home as the host process opens it: the layout a widget sees (`ExtensionHome`)
/// plus what only the host opens, its vault and its analytics queue.
@dynamicMemberLookup
struct HostHome: Sendable {
    /// The layout the host shares with its widgets.
    let shared: ExtensionHome
    /// The vault half: `host/` and `shared/secrets/`, the same layout as `tandem vault`.
    let vaultHome: VaultHome

    /// Opens (and creates, if needed) the layout under `root`.
    init(root: URL) throws {
        shared = try ExtensionHome(root: root)
        vaultHome = try VaultHome(root: root, name: shared.vaultName)
    }

    /// The host's vault, not yet opened.
    var vault: Vault { vaultHome.vault }

    /// The shared layout's properties (the container, the secrets, the directories).
    subscript<Value>(dynamicMember keyPath: KeyPath<ExtensionHome, Value>) -> Value { shared[keyPath: keyPath] }

    /// The app's client configuration, as the host saved it at onboarding.
    func clientConfiguration() throws -> ClientConfiguration { try shared.clientConfiguration() }

    /// Saves the app's client configuration for the widget to read.
    func saveClientConfiguration(_ configuration: ClientConfiguration) throws { try shared.saveClientConfiguration(configuration) }

    /// The share and shared sealing key a widget sends requests with.
    func extensionCredentials() throws -> (share: AuxiliaryShare, sealingKey: SharedSealingKey) { try shared.extensionCredentials() }

    /// The app's URL scheme, for widget tap links.
    func urlScheme() throws -> String { try shared.urlScheme() }

    /// The host's analytics queue, in its private directory, sent `batchSize` events a request.
    func analytics(batchSize: Int = Analytics.maximumBatchSize) throws -> Analytics {
        try Analytics(
            directory: vaultHome.hostDirectory.appendingPathComponent("analytics", isDirectory: true), batchSize: batchSize,
            logger: ToolLogger.make(label: "tandem.analytics"))
    }
}

extension ExtensionOptions {
    /// The app home as the host opens it.
    func hostHome() throws -> HostHome {
        try HostHome(root: URL(fileURLWithPath: dir, isDirectory: true))
    }
}
