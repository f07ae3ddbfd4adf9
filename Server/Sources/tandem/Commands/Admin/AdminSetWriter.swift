import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin set-writer`: lets an API-key app (a back office) write the entity sets of some
/// destinations (`PUT /v1/destinations/…`), or (with `--off`) none.
struct AdminSetWriter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-writer", abstract: "Let an app's API keys write the business data of some destinations (or none with --off).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The app's client id (an API-key app).")
    var clientID: String

    @Option(name: .long, help: "A destination whose entity sets its keys may replace (repeatable); the list replaces the app's grants.")
    var destination: [String] = []

    @Flag(name: .long, help: "Take every write away from the app.")
    var off = false

    func validate() throws {
        guard off == destination.isEmpty else { throw ValidationError("give at least one --destination, or --off alone") }
    }

    func run() async throws {
        let destinations = Set(destination)
        try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setWriter(clientID: clientID, destinations: destinations)
        }
        if destinations.isEmpty {
            print("\(clientID) writes no business data")
        } else {
            print("\(clientID) writes the entity sets of \(destinations.sorted().joined(separator: ", "))")
        }
    }
}
