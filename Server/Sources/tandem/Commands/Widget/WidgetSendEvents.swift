import ArgumentParser
import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemWidgets

/// `tandem widget send-events`: tries to send the queued events with the widget's own grant.
/// The grant is read-only, so the server refuses (`403 insufficient_scope`) and the events stay
/// queued for the host: this command shows that boundary.
struct WidgetSendEvents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send-events", abstract: "Try to send queued events with the widget's read-only grant (the server refuses).")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.home()
        let session = try home.extensionSession(role: "widget")
        var object: [String: Any] = [:]
        do {
            let sealingKey = try home.extensionCredentials().sealingKey
            let sent = try await session.container.events.drain(limit: 500, sealingKey: sealingKey) { events in
                try await EventUpload.send(events, with: session.client, tokens: session.coordinator)
            }
            object = ["status": 200, "sent": sent]
        } catch let error as AuthError {
            if case .server(let status, let code, _) = error {
                object = ["status": status, "error": code ?? NSNull()]
            } else {
                object = ["error": "\(error)"]
            }
        }
        object["queued"] = try session.container.events.count()
        JSONLine.print(object)
    }
}
