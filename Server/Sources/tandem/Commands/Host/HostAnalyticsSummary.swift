import ArgumentParser
import Foundation
import TandemAuth
import TandemSharedContainer
import TandemTool

/// `tandem host analytics-summary`: the server's count of this app's events of one name (widget
/// taps by default) over the last seven days, by kind, family and configuration, fetched with
/// the host's token. Prints the server's JSON.
struct HostAnalyticsSummary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics-summary", abstract: "Print the server's count of the app's events (widget taps by default).")

    @OptionGroup var home: ExtensionOptions

    @Option(name: .long, help: "The event name.")
    var name = "widget.tap"

    func run() async throws {
        let home = try home.hostHome()
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        let (share, _) = try home.extensionCredentials()
        try home.vault.unlock(pairedKey: share)
        defer { home.vault.lock() }
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "name", value: name)]
        let response = try await client.get(
            "/v1/analytics/summary?" + (query.percentEncodedQuery ?? ""), tokens: try RefreshCoordinator.host(vault: home.vault, oauth: client.oauth))
        guard response.isSuccess else { throw AuthError(response: response) }
        print(String(decoding: response.body, as: UTF8.self))
    }
}
