import ArgumentParser
import Foundation
import TandemServer
import TandemTool

/// `tandem admin seed-demo`: creates whatever of the demo is missing — the user `demo`, the OAuth
/// app `tandem-demo`, the API-key app `tandem-demo-kiosk` with a key (printed once, when the app
/// is created) and the `sales` demo data — and leaves the rest as it is. Safe to run again.
struct AdminSeedDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo", abstract: "Create the demo user, demo apps and demo business data (idempotent).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var passwordHashing: PasswordHashingOptions

    @Option(name: .long, help: "The demo user's password; visible in ps, prefer --password-file or $TANDEM_PASSWORD (default: \(ServerAdministration.defaultDemoPassword), for demos only).")
    var password: String?

    @Option(name: .long, help: "A file whose first line is the demo user's password.")
    var passwordFile: String?

    /// The cockpit administrator the demo seeds.
    static let adminUsername = "admin"
    /// Its password when none is given (the given password with `-admin` otherwise): demos only.
    static let defaultAdminPassword = "admin-password"

    func run() async throws {
        let password = try SecretInput.read(option: password, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_PASSWORD")
        let (report, createdAdmin) = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            let administration = ServerAdministration(database: storage, passwordHasher: passwordHashing.hasher)
            let report = try await administration.seedDemo(password: password ?? ServerAdministration.defaultDemoPassword)
            let createdAdmin = try await Self.seedAdministrator(
                administration, password: password.map { $0 + "-admin" } ?? Self.defaultAdminPassword)
            return (report, createdAdmin)
        }
        passwordHashing.warnIfFast()
        let username = ServerAdministration.demoUsername
        if report.createdUser {
            if password == nil {
                FileHandle.standardError.write(Data(
                    "warning: user \(username) has the default password \(ServerAdministration.defaultDemoPassword), which is for demos only\n".utf8))
            }
            print("created user \(username)")
        } else {
            print("user \(username) already exists (password unchanged)")
        }
        print(createdAdmin ? "created administrator \(Self.adminUsername)" : "administrator \(Self.adminUsername) already exists (password unchanged)")
        for clientID in [ServerAdministration.demoClientID, ServerAdministration.demoKioskClientID] {
            print(report.createdApps.contains(clientID) ? "created app \(clientID)" : "app \(clientID) already exists")
        }
        if let apiKey = report.apiKey {
            print("API key for \(ServerAdministration.demoKioskClientID) (shown once): \(apiKey)")
        }
        for set in report.entitySets {
            print("\(DemoBusinessData.destination)/\(set.name): \(set.rows) rows\(set.written ? " written" : ", unchanged")")
        }
    }

    /// The cockpit's administrator, beside the demo user (who is not one): created unless it
    /// exists, and made an administrator.
    ///
    /// - Returns: Whether it was created now.
    private static func seedAdministrator(_ administration: ServerAdministration, password: String) async throws -> Bool {
        var created = true
        do throws(AdminError) {
            try await administration.createUser(username: adminUsername, password: password)
        } catch {
            guard case .storage(.alreadyExists) = error else { throw error }
            created = false
        }
        try await administration.setAdmin(username: adminUsername, admin: true)
        return created
    }
}
