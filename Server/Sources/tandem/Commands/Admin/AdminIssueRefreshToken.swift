import ArgumentParser
import Foundation
import TandemProtocol
import TandemServer
import TandemTool

/// `tandem admin issue-refresh-token`: starts a token family for a user and an app and prints its
/// first refresh token once. Stands in for the authorization endpoint in tests and demos.
struct AdminIssueRefreshToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issue-refresh-token", abstract: "Issue a refresh token for a user and an app (printed once).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var systemSecret: SystemSecretOptions

    @Option(name: .long, help: "The user the grant acts for.")
    var username: String

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Option(name: .long, help: "The granted scope.")
    var scope = OAuthScope.userDefault

    @Option(name: .long, help: "The audience of the access tokens minted from it.")
    var audience = OAuthScope.apiAudience

    @Option(name: .long, help: "How many independent grants to issue, one token per line (for load tests).")
    var count = 1

    @Option(name: .customLong("dpop-jkt"), help: "Bind the grants to the DPoP key with this RFC 7638 thumbprint (load tests of bound refreshes; needs --count).")
    var dpopJKT: String?

    func validate() throws {
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be between 1 and 1000000") }
        guard dpopJKT == nil || count > 1 else { throw ValidationError("--dpop-jkt binds grants issued with --count") }
    }

    func run() async throws {
        let count = count
        let dpopJKT = dpopJKT
        let secret = count == 1 ? try systemSecret.resolve(for: try database.location()) : nil
        let tokens = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            let administration = ServerAdministration(database: storage)
            if let secret {
                return [try await administration.issueRefreshToken(
                    username: username, clientID: clientID, scope: scope, audience: audience, secret: secret).value]
            }
            return try await administration.issueRefreshTokens(
                username: username, clientID: clientID, scope: scope, audience: audience, count: count, dpopJKT: dpopJKT)
        }
        FileHandle.standardOutput.write(Data((tokens.joined(separator: "\n") + "\n").utf8))
    }
}
