import ArgumentParser
import Foundation
import TandemServer
import TandemTool

/// `tandem admin create-user`: creates a user; the password comes from `--password-file`,
/// `TANDEM_PASSWORD` or the first line of standard input, never from the command line (where
/// `ps` would show it).
struct AdminCreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create-user", abstract: "Create a user.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var passwordHashing: PasswordHashingOptions

    @Option(name: .long, help: "The user's sign-in name.")
    var username: String

    @Option(name: .long, help: "A file whose first line is the password (else $TANDEM_PASSWORD, else one line of standard input).")
    var passwordFile: String?

    @Flag(name: .long, help: "Make the user an administrator, who may use the cockpit at /admin.")
    var admin = false

    func run() async throws {
        let password: String
        if let given = try SecretInput.read(option: nil, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_PASSWORD") {
            password = given
        } else if let line = readLine(strippingNewline: true), !line.isEmpty {
            password = line
        } else {
            throw CommandFailure("no password: use --password-file, set TANDEM_PASSWORD or write it on standard input")
        }
        passwordHashing.warnIfFast()
        let user = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            let administration = ServerAdministration(database: storage, passwordHasher: passwordHashing.hasher)
            let user = try await administration.createUser(username: username, password: password)
            if admin { try await administration.setAdmin(username: username, admin: true) }
            return user
        }
        print("created \(admin ? "administrator" : "user") \(user.username) (\(user.id))")
    }
}
