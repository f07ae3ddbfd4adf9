import ArgumentParser
import Foundation
import TandemAuth
import TandemBridge
import TandemTool
import TandemURLSession
import TandemVault

/// `tandem host onboard`: what a host app does the first time it starts: reads the app's
/// configuration from the server, creates the vault, signs the user in (authorization code +
/// PKCE, with the server's sign-in form filled in headlessly), keeps the tokens in the vault,
/// enables extension access, obtains the widgets' scoped grant and marks the session ready.
struct HostOnboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard", abstract: "Onboard the host app: vault, sign-in, extension access, the widgets' grant.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var passcode: PasscodeOptions
    @OptionGroup var keyDerivation: KeyDerivationOptions

    @Option(name: .long, help: "The Tandem server's base URL, such as http://127.0.0.1:8080.")
    var server: String

    @Option(name: .long, help: "The app's OAuth client id.")
    var clientID = "tandem-demo"

    @Option(name: .long, help: "The user to sign in as.")
    var username: String

    @Option(name: .long, help: "The user's password; visible in ps, prefer --password-file or $TANDEM_PASSWORD (else one line of standard input).")
    var password: String?

    @Option(name: .long, help: "A file whose first line is the user's password.")
    var passwordFile: String?

    @Flag(name: .long, help: "Protect the vault by the device secret alone instead of a passcode.")
    var noPasscode = false

    func validate() throws {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server must be an http or https URL")
        }
    }

    func run() async throws {
        let home = try home.home()
        guard try !home.vault.status().exists else {
            throw CommandFailure("\(home.vaultHome.hostDirectory.path) already holds a vault: the host is onboarded")
        }
        guard let serverURL = URL(string: server) else { throw ValidationError("--server must be a URL") }
        // The server named here is the one this host is built for: its allowlist.
        let configuration = try await ServerConfigurationProvider(
            serverURL: serverURL, clientID: clientID, client: HTTPClient(transport: URLSessionTransport()), allowedServers: try ServerAllowlist([serverURL])
        ).configuration()
        let client = AppClient.tool(configuration, role: "host")
        let secret = try PasscodeInput.read(
            option: password, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_PASSWORD", prompt: "Password: ")

        let pending = try await client.oauth.startAuthorization()
        let redirect = try await HeadlessSignIn(username: username, password: secret).redirect(for: pending.url)
        let tokens = try await client.oauth.completeAuthorization(redirect: redirect, for: pending)

        if noPasscode {
            try home.vault.createWithoutPasscode()
        } else {
            try home.vault.create(passcode: try passcode.resolve(), policy: configuration.passcodePolicy ?? .default, cost: keyDerivation.cost)
        }
        defer { home.vault.lock() }
        try VaultTokenStore(vault: home.vault).save(tokens)
        try home.vault.enableExtensionAccess(shared: home.sharedSecrets)
        _ = try BridgeKey.provision(in: home.sharedSecrets)
        try home.saveClientConfiguration(configuration)

        let grant = try await client.oauth.exchangeForExtensionGrant(accessToken: tokens.accessToken)
        try SharedGrantStore(container: home.container, share: home.vaultHome.auxiliaryShare()).save(grant)
        try home.container.setStatus(SessionStatus(state: .ready, reason: "onboarded"))
        JSONLine.print(["state": "ready", "client_id": configuration.clientID, "extension_grant": true, "vault": noPasscode ? "deviceOnly" : "passcode"])
    }
}
