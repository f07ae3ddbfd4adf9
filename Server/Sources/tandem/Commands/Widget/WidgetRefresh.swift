import ArgumentParser
import Foundation
import TandemAuth
import TandemSharedContainer
import TandemTool

/// `tandem widget refresh`: refreshes the widget's grant now, as a widget whose access token was
/// refused would — unless another process has already done it, whose result is then reused.
struct WidgetRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Refresh the widget's grant (single-flight across processes).")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let events = RefreshEventLog()
        let session = try home.home().extensionSession(role: "widget", onEvent: events.record)
        do {
            let stale = try session.currentAccessToken()
            let tokens = try await session.coordinator.refresh(replacing: stale)
            JSONLine.print(["result": "ok", "refreshed": events.contains(.refreshed), "token": JSONLine.fingerprint(tokens.accessToken)])
        } catch {
            try session.printUnavailable(because: error)
        }
    }
}
