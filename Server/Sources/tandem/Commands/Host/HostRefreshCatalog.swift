import ArgumentParser
import Foundation
import TandemHost
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem host refresh-catalog`: the settings step of the host's flow (``HostFlow``), run in the
/// background whatever the listing's age: it fetches the server's `/v1/destinations` listing with
/// the host's token (the vault opens through the paired key) and caches it, sealed, in the shared
/// container, where a widget's configuration (`tandem widget configure`) picks its destination and
/// entity set from it. Prints the options it cached.
struct HostRefreshCatalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh-catalog", abstract: "Cache the server's destinations listing for the widgets' configuration.")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.hostHome()
        _ = try home.clientConfiguration()
        let (share, _) = try home.extensionCredentials()
        let flow = Flow([ConfigurationStep(source: nil), SettingsStep(maximumAge: 0)])
        try await flow.run(.background, in: HostFlow.context(home: home), observer: HostFlow.progress)
        guard let catalog = try DestinationCatalog.read(from: home.container, share: share) else {
            throw CommandFailure("the destinations listing was fetched but cannot be read back")
        }
        JSONLine.print(["options": catalog.options.map { option -> [String: Any] in
            var line: [String: Any] = ["destination": option.destination, "entitySet": option.entitySet]
            // A set read from a customer's backend has no count the server knows.
            if let count = option.count { line["count"] = count }
            return line
        }])
    }
}
