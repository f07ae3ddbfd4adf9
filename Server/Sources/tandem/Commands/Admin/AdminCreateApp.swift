import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin create-app`: registers an app and its security configuration.
struct AdminCreateApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create-app", abstract: "Register an app.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The OAuth client id (unique).")
    var clientID: String

    @Option(name: .long, help: "A human-readable name.")
    var name: String

    @Option(name: .long, help: "A redirect URI the authorization endpoint accepts (repeatable).")
    var redirectURI: [String] = []

    @Option(name: .long, help: "The app's custom URL scheme.")
    var urlScheme: String?

    @Option(name: .long, help: "oauth or apiKey.")
    var securityMode: String = SecurityMode.oauth.rawValue

    @Flag(name: .long, help: "Enable cross-context SSO onboarding.")
    var sso = false

    @Flag(name: .long, help: "Require DPoP: every token request carries a proof, and every grant is bound to a key on the device.")
    var dpopRequired = false

    func validate() throws {
        guard SecurityMode(rawValue: securityMode) != nil else {
            throw ValidationError("--security-mode must be oauth or apiKey")
        }
    }

    func run() async throws {
        let mode = SecurityMode(rawValue: securityMode) ?? .oauth
        let app = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).createApp(
                clientID: clientID, name: name, redirectURIs: redirectURI, urlScheme: urlScheme,
                securityMode: mode, ssoEnabled: sso, dpopRequired: dpopRequired)
        }
        print("created app \(app.clientID) (\(app.securityMode.rawValue)\(app.ssoEnabled ? ", SSO enabled" : "")\(app.dpopRequired ? ", DPoP required" : ""))")
    }
}
