import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin set-resource-server`: registers an app as a resource server, whose API keys may
/// introspect tokens of the given audiences, or (with `--off`) unregisters it.
struct AdminSetResourceServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-resource-server", abstract: "Let an app's API keys introspect tokens of some audiences (or stop it with --off).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Option(name: .long, help: "An audience whose tokens it may introspect, e.g. tandem or tandem-extension (repeatable). Introspection only: `tandem admin set-writer` lets its keys write business data.")
    var audience: [String] = []

    @Flag(name: .long, help: "Unregister the app: its keys may no longer introspect.")
    var off = false

    func validate() throws {
        guard off == audience.isEmpty else { throw ValidationError("give at least one --audience, or --off alone") }
    }

    func run() async throws {
        let audiences = off ? nil : Set(audience)
        try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setResourceServer(clientID: clientID, audiences: audiences)
        }
        if let audiences {
            print("\(clientID) is a resource server for \(audiences.sorted().joined(separator: ", "))")
        } else {
            print("\(clientID) is no longer a resource server")
        }
    }
}
