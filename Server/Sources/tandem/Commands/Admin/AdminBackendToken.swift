import ArgumentParser
import Foundation
import TandemServer
import TandemTool

/// `tandem admin backend-token`: prints the 5-minute token the server would send a customer's
/// backend for a user (principal propagation), so that the backend's team can check their JWT
/// validator against the server's JWKS before a destination points at them. Audited.
struct AdminBackendToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend-token",
        abstract: "Print the token the server would send a backend for a user (valid 5 minutes; audited).",
        discussion: """
            The token is a JWT access token (RFC 9068, typ at+jwt) signed ES256 with the key at the \
            server's /.well-known/jwks.json: sub (the user's id), preferred_username, client_id and azp \
            (the app), aud (the backend), iss, iat, exp, jti, and act when minted --as-widget.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var systemSecret: SystemSecretOptions

    @Option(name: .long, help: "The user the token speaks for.")
    var username: String

    @Option(name: .long, help: "The app's client id.")
    var clientID: String

    @Option(name: .long, help: "The backend's audience (its identifier, usually its base URL).")
    var audience: String

    @Option(name: .long, help: "The server's issuer URL, as its discovery document says (the backend checks iss).")
    var issuer: String

    @Flag(name: .long, help: "Mint it as a widget's request has it: with act naming the app's widgets.")
    var asWidget = false

    func run() async throws {
        let secret = try systemSecret.resolve(for: try database.location())
        let token = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).mintBackendToken(
                username: username, clientID: clientID, audience: audience, issuer: issuer, viaWidget: asWidget, secret: secret)
        }
        FileHandle.standardOutput.write(Data((token + "\n").utf8))
    }
}
