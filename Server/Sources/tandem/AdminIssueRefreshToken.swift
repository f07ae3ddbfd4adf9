import ArgumentParser
import TandemServer

/// `tandem admin issue-refresh-token`: starts a token family for a user and an app and prints its
/// first refresh token once. Stands in for the authorization endpoint in tests and demos.
struct AdminIssueRefreshToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issue-refresh-token", abstract: "Issue a refresh token for a user and an app (printed once).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The user the grant acts for.")
    var username: String

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Option(name: .long, help: "The granted scope.")
    var scope = "openid offline_access"

    @Option(name: .long, help: "The audience of the access tokens minted from it.")
    var audience = "tandem"

    func run() async throws {
        let token = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            let keys = try await ServerKeys.load(from: storage)
            let service = RefreshTokenService(storage: storage, sealer: try SuccessorSealer(keyMaterial: keys.sealingKey))
            return try await ServerAdministration(storage: storage).issueRefreshToken(
                username: username, clientID: clientID, scope: scope, audience: audience, service: service)
        }
        print(token.value)
    }
}
