import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin create-api-key`: creates an API key for an app and prints it once; the server
/// keeps only its hash.
struct AdminCreateAPIKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create-api-key", abstract: "Create an API key (printed once).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    func run() async throws {
        let key = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).createAPIKey(clientID: clientID)
        }
        print(key)
    }
}
