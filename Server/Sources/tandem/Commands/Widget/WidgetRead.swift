import ArgumentParser
import Foundation
import TandemProtocol
import TandemSharedContainer
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem widget read`: what a widget renders: the session state the host published and the
/// latest snapshot for a page, decrypted, with whether it is fresh or stale and how old. A
/// damaged snapshot reads as none (with a log line); the widget then keeps asking.
struct WidgetRead: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Read the session state and a page's latest snapshot.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var page: EntitySetOptions

    func run() async throws {
        let home = try home.home()
        guard let session = try home.container.status()?.state else {
            JSONLine.print(["session": SessionStatus.State.signedOut.rawValue, "snapshot": NSNull()])
            return
        }
        guard let (share, _) = try? home.extensionCredentials() else {
            // The shared keychain is not readable (device locked before first unlock, or no
            // extension access yet): keep what is shown, never claim the user signed out.
            JSONLine.print(["session": "unavailable", "snapshot": NSNull()])
            return
        }
        var object: [String: Any] = ["session": session.rawValue, "snapshot": NSNull()]
        if let reading = try home.container.snapshots.read(kind: EntitySetKey.kind, key: page.key, using: share) {
            let snapshot = reading.snapshot
            var described: [String: Any] = [
                "fetched_at": ISO8601Time.string(from: snapshot.fetchedAt, fractionalSeconds: false),
                "etag": snapshot.etag ?? NSNull(),
                "payload": (try? JSONDecoder().decode(JSONValue.self, from: snapshot.payload)) ?? JSONValue.null,
            ]
            described["freshness"] = reading.freshness == .fresh ? "fresh" : "stale"
            described["age_seconds"] = reading.age
            object["snapshot"] = described
        }
        JSONLine.print(object)
    }
}
