import ArgumentParser
import Foundation
import TandemAuth
import TandemBridge
import TandemTool
import TandemWidgets

/// `tandem host refresh-catalog`: fetches the server's `/v1/destinations` listing with the
/// host's token and caches it, sealed, in the shared container, where a widget's configuration
/// (`tandem widget configure`) picks its destination and entity set from it. Runs in the
/// background like ``HostFulfil``: the vault opens through the paired key.
struct HostRefreshCatalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh-catalog", abstract: "Cache the server's destinations listing for the widgets' configuration.")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.home()
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        let (share, _) = try home.extensionCredentials()
        try home.vault.unlock(pairedKey: share)
        defer { home.vault.lock() }
        let catalog = try await DestinationCatalog.fetch(with: client, tokens: try RefreshCoordinator.host(vault: home.vault, oauth: client.oauth))
        try catalog.write(to: home.container, share: share)
        JSONLine.print(["options": catalog.options.map { ["destination": $0.destination, "entitySet": $0.entitySet, "count": $0.count] }])
    }
}
