import ArgumentParser
import Foundation
import TandemServer
import TandemTool

/// `tandem admin set-apns-key`: gives an app the APNs auth key its pushes are sent with (read
/// from the `.p8` file Apple issued, or standard input; never from the command line), or
/// removes it with `--off`.
struct AdminSetAPNsKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-apns-key", abstract: "Store an app's APNs auth key (sealed), so its devices get pushes (or remove it with --off).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var systemSecret: SystemSecretOptions

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Option(name: .long, help: "The key's 10-character id, from Apple's developer account.")
    var keyID: String?

    @Option(name: .long, help: "The Apple developer team id (10 characters).")
    var teamID: String?

    @Option(name: .long, help: "The app's bundle id: its pushes' topic.")
    var bundleID: String?

    @Option(name: .long, help: "The .p8 key file (PEM); '-' reads it from standard input.")
    var keyFile: String?

    @Flag(name: .long, help: "Remove the app's key: its devices get no more pushes.")
    var off = false

    func validate() throws {
        let given = [keyID, teamID, bundleID, keyFile].compactMap { $0 }
        guard off ? given.isEmpty : given.count == 4 else {
            throw ValidationError("give --key-id, --team-id, --bundle-id and --key-file, or --off alone")
        }
    }

    func run() async throws {
        guard !off, let keyID, let teamID, let bundleID, let keyFile else {
            try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).removeAPNsKey(clientID: clientID)
            }
            print("\(clientID) has no APNs key: its devices get no pushes")
            return
        }
        let pem: String
        do {
            pem = keyFile == "-"
                ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                : try String(contentsOfFile: keyFile, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot read \(keyFile): \(error.localizedDescription)")
        }
        let secret = try systemSecret.resolve(for: try database.location())
        try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setAPNsKey(
                clientID: clientID, keyID: keyID, teamID: teamID, bundleID: bundleID, keyPEM: pem, secret: secret)
        }
        print("\(clientID) pushes with APNs key \(keyID) of team \(teamID), topic \(bundleID)")
    }
}
