import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault

/// A host app against a ``FakeTandemServer``: its vault (not yet created), the shared container
/// and the extensions' secret storage in a temporary folder, and the standard six steps in the
/// order an app declares them. Each ``context(configuration:passcode:browser:apiKey:)`` is one start of
/// the app; the vault instance is kept across them, as one process would keep it.
struct HostFixture {
    /// The cheapest scrypt cost the vault accepts, so passcode vaults cost no time in tests.
    static let cheapCost = KeyDerivationCost.fixed(log2N: 10, r: 1, p: 1)

    let directory: TemporaryDirectory
    let server: FakeTandemServer
    let vault: Vault
    let container: SharedContainer
    let sharedSecrets: FileSecretStorage

    init(server: FakeTandemServer = FakeTandemServer(), biometrics: (any BiometricSecretStore)? = nil) throws {
        directory = try TemporaryDirectory()
        self.server = server
        let host = directory.url.appendingPathComponent("host", isDirectory: true)
        vault = Vault(
            directory: host, secrets: try FileSecretStorage(directory: host.appendingPathComponent("secrets")), biometrics: biometrics)
        container = try SharedContainer(directory: directory.url.appendingPathComponent("shared/container", isDirectory: true))
        sharedSecrets = try FileSecretStorage(directory: directory.url.appendingPathComponent("shared/secrets"))
    }

    /// The configuration source reading the fake server's configuration endpoint.
    static func serverSource() throws -> ConfigurationStep.Source {
        .server(FakeTandemServer.base, clientID: FakeTandemServer.clientID, allowedServers: try ServerAllowlist([FakeTandemServer.base]))
    }

    /// One start of the app: a fresh context over the same directories, on `clock`, sending through
    /// `transport` (by default straight to the fake server).
    func context(
        configuration: ClientConfiguration? = nil, passcode: String? = nil, browser: (any SignInBrowser)? = nil, apiKey: String? = nil,
        confirmation: (any ConfirmationPresenter)? = FixedConfirmation(true), notice: (any NoticePresenter)? = nil,
        clock: any WallClock = SystemClock(), transport: (any HTTPTransport)? = nil
    ) -> FlowContext {
        FlowContext(
            vault: vault, container: container, sharedSecrets: sharedSecrets, transport: transport ?? server, appVersion: "1.0",
            presenters: FlowPresenters(
                passcode: passcode.map(FixedPasscodePrompt.init), signIn: browser, confirmation: confirmation,
                apiKey: apiKey.map(FixedAPIKeyPrompt.init), notice: notice),
            configuration: configuration, logger: LogCapture.discarding, clock: clock)
    }

    /// configuration → vault → authentication → extension access → settings → extension communication.
    func flow(
        source: ConfigurationStep.Source? = nil, protection: VaultStep.Protection = .deviceOnly,
        saved: Recorder<ClientConfiguration> = Recorder(), reloader: (any WidgetReloader)? = nil, sources: DataSources = .standard,
        onFulfilment: @escaping @Sendable ([FulfilmentOutcome]) -> Void = { _ in }
    ) -> Flow {
        Flow([
            ConfigurationStep(source: source, save: { saved.append($0) }),
            VaultStep(protection: protection),
            AuthenticationStep(),
            ExtensionAccessStep(),
            SettingsStep(),
            ExtensionCommunicationStep(reloader: reloader, sources: sources, onFulfilment: onFulfilment),
        ])
    }

    /// Onboards with the server's configuration, a device-only vault and a signed-in browser;
    /// returns the configuration, as the app saves it for later starts.
    @discardableResult
    func onboard() async throws -> ClientConfiguration {
        let saved = Recorder<ClientConfiguration>()
        try await flow(source: try Self.serverSource(), saved: saved).run(.onboard, in: context(browser: FakeSignInBrowser(server: server)))
        guard let configuration = saved.all.last else { throw TestSetupError("onboarding saved no configuration") }
        return configuration
    }

    /// The user's tokens in the (device-only) vault, read with the vault opened and locked again.
    func userTokens() throws -> TokenSet? {
        try vault.unlock()
        defer { vault.lock() }
        return try VaultTokenStore(vault: vault).load()
    }

    /// The auxiliary share in the extensions' storage.
    func share() throws -> AuxiliaryShare {
        guard let share = try AuxiliaryShare.load(from: sharedSecrets, vaultName: vault.name) else {
            throw TestSetupError("no auxiliary share in the extensions' storage")
        }
        return share
    }

    /// The widgets' grant, sealed in the shared container.
    func widgetsGrant() throws -> TokenSet? {
        try SharedGrantStore(container: container, share: share()).load()
    }
}
