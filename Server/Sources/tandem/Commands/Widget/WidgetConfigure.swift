import ArgumentParser
import Foundation
import TandemSharedContainer
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem widget configure`: the widget's configuration screen. Without a choice it lists what
/// the host's cached catalog offers; with one it checks the choice against the catalog and
/// records the instance in the container's widget registry, where `tandem widget timeline
/// --instance` (and the host's reloads) find it.
struct WidgetConfigure: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure", abstract: "Pick a widget instance's destination and entity set from the host's catalog.")

    @OptionGroup var home: ExtensionOptions

    @Option(name: .long, help: "The instance's id.")
    var instance: String

    @Option(name: .long, help: "The widget's kind.")
    var kind = "business-data"

    @Option(name: .long, help: "The family.")
    var family: WidgetFamily = .systemMedium

    @Option(name: .long, help: "The destination (omit to list the choices).")
    var destination: String?

    @Option(name: .long, help: "The entity set (omit to list the choices).")
    var entitySet: String?

    @Option(name: .long, help: "Rows to ask for.")
    var limit = DataWidgetConfiguration.defaultLimit

    func run() async throws {
        let home = try home.home()
        let (share, _) = try home.extensionCredentials()
        guard let catalog = try DestinationCatalog.read(from: home.container, share: share, logger: ToolLogger.make(label: "tandem.widgets")) else {
            throw CommandFailure("no destination catalog in the shared container: run `tandem host refresh-catalog` first")
        }
        let options = catalog.options.map { ["destination": $0.destination, "entitySet": $0.entitySet] }
        guard let destination, let entitySet else {
            JSONLine.print(["options": options])
            return
        }
        let configuration = DataWidgetConfiguration(destination: destination, entitySet: entitySet, limit: limit)
        guard catalog.offers(configuration) else {
            throw CommandFailure("\(entitySet) in \(destination) is not in the catalog; choose one of: "
                + catalog.options.map { "\($0.destination)/\($0.entitySet)" }.joined(separator: ", "))
        }
        try home.container.widgets.register(configuration.registration(id: instance, kind: kind, family: family))
        JSONLine.print(["instance": instance, "kind": kind, "family": family.rawValue, "parameters": configuration.parameters])
    }
}
