import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin set-dpop`: requires DPoP for an app's token requests, or (with `--optional`)
/// stops requiring it.
struct AdminSetDPoP: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-dpop", abstract: "Require DPoP-bound tokens for an app (or stop requiring them with --optional).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Flag(name: .long, help: "Stop requiring DPoP; grants already bound stay bound.")
    var optional = false

    func run() async throws {
        try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setDPoPRequired(clientID: clientID, required: !optional)
        }
        print(optional ? "\(clientID) no longer requires DPoP" : "\(clientID) requires DPoP")
    }
}
