import ArgumentParser
import Foundation
import TandemAuth
import TandemSharedContainer
import TandemTool

/// `tandem host status`: what the host and its widgets share, as one JSON object: the session
/// state published to widgets, the vault's protection, pending requests, queued events and
/// whether the widgets hold a grant. It opens nothing and needs no passcode.
struct HostStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the session state, the vault and the shared container's contents as JSON.")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.hostHome()
        let vault = try home.vault.status()
        let session = try home.container.status()
        JSONLine.print([
            "session": session?.state.rawValue ?? SessionStatus.State.signedOut.rawValue,
            "session_reason": session?.reason ?? NSNull(),
            "vault": vault.exists ? (vault.protection?.rawValue ?? "unknown") : "none",
            "extension_access": vault.extensionAccessEnabled,
            "pending_requests": try SharedSealingKey.load(from: home.sharedSecrets).map { try home.container.requests.pending(sealingKey: $0).count } ?? 0,
            "queued_events": try home.container.events.count(),
            "extension_grant": FileManager.default.fileExists(atPath: home.container.directory.appendingPathComponent(SharedGrantStore.path).path),
        ])
    }
}
