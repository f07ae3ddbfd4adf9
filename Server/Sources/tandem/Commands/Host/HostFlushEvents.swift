import ArgumentParser
import Foundation
import TandemAuth
import TandemBridge
import TandemWidgets
import TandemVault

/// `tandem host flush-events`: sends the analytics events widgets queued in the shared container
/// to the server with the host's own token (a widget's grant is read-only), and removes each
/// batch only once the server took it. It runs in the background like ``HostFulfil``: the vault
/// opens through the paired key, with no passcode.
struct HostFlushEvents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush-events", abstract: "Send the widgets' queued analytics events with the host's token.")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.home()
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        let (share, bridgeKey) = try home.extensionCredentials()
        try home.vault.unlock(pairedKey: share)
        defer { home.vault.lock() }
        let coordinator = try RefreshCoordinator.host(vault: home.vault, oauth: client.oauth)
        let sent = try await home.container.events.drain(limit: 500, bridgeKey: bridgeKey) { events in
            try await EventUpload.send(events, with: client, tokens: coordinator)
        }
        JSONLine.print(["sent": sent, "queued": try home.container.events.count()])
    }
}
