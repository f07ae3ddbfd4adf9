import ArgumentParser
import Foundation
import TandemAuth
import TandemProtocol
import TandemSharedContainer
import TandemTool

/// `tandem widget fetch`: direct mode: the widget fetches a page itself with its own read-only
/// grant, refreshing it (single-flight across processes) when it has expired or the server
/// answers 401. A dead grant puts the widget into `reauthRequired`, never into a crash.
struct WidgetFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fetch", abstract: "Fetch a page with the widget's own grant (direct mode).")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var page: EntitySetOptions

    @Flag(name: .long, help: "Print the page itself too.")
    var printPayload = false

    func run() async throws {
        let session = try home.home().extensionSession(role: "widget")
        do {
            let response = try await session.client.get(page.key.resourcePath, tokens: session.coordinator)
            JSONLine.print(describe(response))
        } catch {
            try session.printUnavailable(because: error)
        }
    }

    private func describe(_ response: HTTPResponse) -> [String: Any] {
        var object: [String: Any] = ["result": response.isSuccess ? "ok" : "error", "status": response.status, "etag": response.headers["ETag"] ?? NSNull()]
        if let json = try? JSONDecoder().decode(JSONValue.self, from: response.body), case .object = json {
            object["count"] = json.count(ofArray: "items") ?? NSNull()
            if printPayload { object["payload"] = json }
        }
        return object
    }
}
