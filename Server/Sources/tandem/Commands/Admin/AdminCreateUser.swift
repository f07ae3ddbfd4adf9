import ArgumentParser
import Foundation
import TandemServer

/// `tandem admin create-user`: creates a user; the password comes from `TANDEM_PASSWORD` or
/// the first line of standard input, never from the command line (where `ps` would show it).
struct AdminCreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create-user", abstract: "Create a user.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The user's sign-in name.")
    var username: String

    func run() async throws {
        let password: String
        if let fromEnvironment = ProcessInfo.processInfo.environment["TANDEM_PASSWORD"], !fromEnvironment.isEmpty {
            password = fromEnvironment
        } else if let line = readLine(strippingNewline: true), !line.isEmpty {
            password = line
        } else {
            throw CommandFailure("no password: set TANDEM_PASSWORD or write it on standard input")
        }
        let user = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(storage: storage).createUser(username: username, password: password)
        }
        print("created user \(user.username) (\(user.id))")
    }
}
