import ArgumentParser
import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemVault

/// `tandem host onboard`: what a host app does the first time it starts, as the onboarding flow
/// (``HostFlow``): reads the app's configuration from the server, creates the vault under the
/// server's passcode policy, signs the user in (authorization code + PKCE, the server's sign-in
/// form filled in headlessly) keeping the tokens in the vault, enables extension access, obtains
/// the widgets' scoped grant, marks the session ready and caches the destinations listing. Run
/// again on an onboarded home, it resumes: the vault is unlocked, not replaced.
struct HostOnboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard", abstract: "Onboard the host app: vault, sign-in, extension access, the widgets' grant.")

    @OptionGroup var home: ExtensionOptions
    @Option(name: .long, help: "For an SSO code: the account this host may be signed in to; without it, the terminal is asked.")
    var account: String?

    @OptionGroup var passcode: PasscodeOptions
    @OptionGroup var keyDerivation: KeyDerivationOptions

    @Option(name: .long, help: "The Tandem server's base URL, such as http://127.0.0.1:8080.")
    var server: String

    @Option(name: .long, help: "The app's OAuth client id.")
    var clientID = "tandem-demo"

    @Option(name: .long, help: "The user to sign in as (not for an API-key app).")
    var username: String?

    @Option(name: .long, help: "The user's password; visible in ps, prefer --password-file or $TANDEM_PASSWORD (else one line of standard input).")
    var password: String?

    @Option(name: .long, help: "A file whose first line is the user's password.")
    var passwordFile: String?

    @Option(name: .long, help: "For an API-key app: a file whose first line is the app's key (else $TANDEM_API_KEY).")
    var apiKeyFile: String?

    @Option(name: .long, help: "A picture of the desktop SSO page's QR code: onboard with it instead of signing in (zbarimg reads it).")
    var qrImage: String?

    @Flag(name: .long, help: "Protect the vault by the device secret alone instead of a passcode.")
    var noPasscode = false

    func validate() throws {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server must be an http or https URL")
        }
    }

    func run() async throws {
        let home = try home.hostHome()
        guard let serverURL = URL(string: server) else { throw ValidationError("--server must be a URL") }
        if let qrImage {
            guard !noPasscode else { throw ValidationError("--qr-image onboards with a passcode vault; leave out --no-passcode") }
            let link = try await SSOHostOnboarding.decodeQRCode(at: qrImage)
            try await SSOHostOnboarding(
                home: home, server: serverURL, clientID: clientID, passcode: passcode, cost: keyDerivation.cost, account: account)
                .onboard(link)
            return
        }
        let presenters = FlowPresenters(
            passcode: OptionsPasscodePrompt(passcode), signIn: DeferredSignIn(username: username, password: password, passwordFile: passwordFile),
            apiKey: DeferredAPIKey(file: apiKeyFile))
        // The server named here is the one this host is built for: its allowlist.
        let source = ConfigurationStep.Source.server(serverURL, clientID: clientID, allowedServers: try ServerAllowlist([serverURL]))
        let flow = HostFlow.flow(home: home, source: source, protection: noPasscode ? .deviceOnly : .passcode(cost: keyDerivation.cost))
        let context = HostFlow.context(home: home, presenters: presenters)
        try await flow.run(.onboard, in: context, observer: HostFlow.progress)
        JSONLine.print(HostFlow.onboarded(try context.requireConfiguration(), vault: noPasscode ? "deviceOnly" : "passcode"))
    }
}
