import ArgumentParser
import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemVault
import TandemWidgets

/// `tandem host flush-events`: sends the host's own analytics queue (widget taps it routed) and
/// the events widgets queued in the shared container to the server with the host's token (a
/// widget's grant is read-only). An event leaves its queue only once the server took its batch,
/// and the server keeps an event id once, so a flush cut off halfway and run again loses and
/// repeats nothing. It runs in the background like ``HostFulfil``: the vault opens through the
/// paired key, with no passcode.
struct HostFlushEvents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush-events", abstract: "Send the queued analytics events (host's and widgets') with the host's token.")

    @OptionGroup var home: ExtensionOptions

    @Option(name: .long, help: "Events per request (1 to 500).")
    var batchSize = Analytics.maximumBatchSize

    func validate() throws {
        guard (1...Analytics.maximumBatchSize).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 500") }
    }

    func run() async throws {
        let home = try home.hostHome()
        let analytics = try home.analytics(batchSize: batchSize)
        let sent = try await Self.flush(analytics, home: home)
        JSONLine.print(["sent": sent, "queued": await analytics.pendingEvents().count + (try home.container.events.count())])
    }

    /// Sends the host's queue, then the widgets' shared one; returns how many events went.
    static func flush(_ analytics: Analytics, home: HostHome) async throws -> Int {
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        let (share, sealingKey) = try home.extensionCredentials()
        try home.vault.unlock(pairedKey: share)
        defer { home.vault.lock() }
        let coordinator = try RefreshCoordinator.host(vault: home.vault, oauth: client.oauth)
        var sent = try await analytics.flush(with: client, tokens: coordinator)
        sent += try await home.container.events.drain(limit: Analytics.maximumBatchSize, sealingKey: sealingKey) { events in
            try await EventUpload.send(events, with: client, tokens: coordinator)
        }
        return sent
    }
}
