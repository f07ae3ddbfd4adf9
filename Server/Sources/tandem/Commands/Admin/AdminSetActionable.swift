import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin set-actionable`: makes an entity set actionable — its items can be approved or
/// rejected (`POST /v1/destinations/…/{item}/actions/{action}`) — with the row field that names
/// an item. Its rows get a `Status` (when absent) and a server-computed `ETag`.
struct AdminSetActionable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-actionable", abstract: "Let users approve or reject the items of an entity set.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The destination's name.")
    var destination: String

    @Option(name: .long, help: "The entity set's name.")
    var entitySet: String

    @Option(name: .long, help: "The row field naming an item, a string unique within the set, e.g. ApprovalID.")
    var idField: String

    func run() async throws {
        let changed = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setActionable(destination: destination, entitySet: entitySet, idField: idField)
        }
        print("\(destination)/\(entitySet) is actionable by \(idField)\(changed ? "; its rows now carry Status and ETag" : "")")
    }
}
