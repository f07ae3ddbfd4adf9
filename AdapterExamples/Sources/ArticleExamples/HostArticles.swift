// The Swift blocks of TandemHost's, TandemSharedContainer's and TandemVault's DocC articles,
// each verbatim in a body; the names they take from the app around them are parameters.
import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemURLSession
import TandemVault
import TandemWidgetModel
import UIKit

// TandemHost.docc/OnboardingAPhoneFromTheDesktop.md
@MainActor
func onboardingAPhoneFromTheDesktop(openedURL: URL, allowlist: ServerAllowlist, context: FlowContext) async throws {
    let flow = Flow([
        ConfigurationStep(source: .ssoLink(openedURL, clientID: "sales", allowedServers: allowlist,
                                           deviceLabel: UIDevice.current.name)),
        VaultStep(),
        AuthenticationStep(stepUpKey: { _ in try SecureEnclaveStepUpKey.key(tag: "com.example.sales.step-up") }),
        ExtensionAccessStep(), SettingsStep(),
    ])
    try await flow.run(.onboard, in: context, keepVaultUnlocked: true)
}

// TandemHost.docc/OnboardingRestoringAndBackgroundFlows.md
/// Where the app keeps its configuration.
struct SavedSettings: Sendable {
    func save(_ configuration: ClientConfiguration) throws {}
    func savedConfiguration() -> ClientConfiguration? { nil }
}

/// What the app shows while a flow runs.
struct ProgressView: Sendable {
    func show(_ event: FlowEvent) {}
}

func onboardingRestoringAndBackgroundFlows(
    serverURL: URL, settings: SavedSettings, stepUpTag: String, widgetCenter: WidgetCenterReloader, vault: Vault,
    container: SharedContainer, sharedKeychain: KeychainSecretStorage, appVersion: String, passcodeScreen: any PasscodePrompt,
    webSignIn: WebAuthenticationSignIn, progressView: ProgressView, scheduler: AppRefreshScheduler
) async throws {
    let flow = Flow([
        ConfigurationStep(source: .server(serverURL, clientID: "com.example.orders",
                                          allowedServers: try ServerAllowlist([serverURL])),
                          save: { try settings.save($0) }),
        VaultStep(),                    // the passcode and secure store
        AuthenticationStep(             // code + PKCE through the sign-in presenter,
            stepUpKey: { _ in try SecureEnclaveStepUpKey.key(tag: stepUpTag) }),   // enrolling the step-up key
        ExtensionAccessStep(),          // paired key, shared sealing key, the widgets' grant, status ready
        SettingsStep(),                 // the destinations listing the widgets configure from
        ActionExecutionStep(            // the widgets' Approve and Reject taps
            reloader: widgetCenter, stepUpKey: { _ in try SecureEnclaveStepUpKey.key(tag: stepUpTag) }),
        ExtensionCommunicationStep(reloader: widgetCenter),
    ])

    let context = FlowContext(
        vault: vault, container: container, sharedSecrets: sharedKeychain,
        transport: URLSessionTransport(), appVersion: appVersion,
        presenters: FlowPresenters(passcode: passcodeScreen, signIn: webSignIn),
        configuration: settings.savedConfiguration())

    // First start.
    try await flow.run(.onboard, in: context, keepVaultUnlocked: true) { event in
        progressView.show(event)          // "onboard vault: vault created … (820 ms)"
    }

    // Later starts.
    try await flow.run(.restore, in: context, keepVaultUnlocked: true)

    // With no user present (BGTaskScheduler on a phone, a timer on Linux).
    await scheduler.register { (try? await flow.run(.background, in: context)) != nil }
    try await scheduler.schedule(earliestBegin: .now.addingTimeInterval(15 * 60))
}

// TandemSharedContainer.docc/TandemSharedContainer.md
func tandemSharedContainer(appGroupURL: URL) throws -> SessionStatus.State {
    let container = try SharedContainer(directory: appGroupURL)
    try container.setStatus(SessionStatus(state: .ready))        // the host
    let state = try container.status()?.state ?? .signedOut      // a widget
    return state
}

// TandemSharedContainer.docc/BrokeredVsDirectMode.md
struct Page: Codable, Sendable { var offset = 0 }

/// The app's own API client, as the article names it.
struct OrdersAPI: Sendable {
    struct Response: Sendable {
        var body: Data
        var headers: [String: String]
    }
    func page(_ page: Page, tokens: RequestCredentials) async throws -> Response { Response(body: Data(), headers: [:]) }
}

enum WidgetScreen { case signIn, requested }
func showSignInLink() -> WidgetScreen { .signIn }
func render(_ payload: Data, stale: Bool, age: TimeInterval) {}

func brokeredVsDirectModeWidget(sharedSecrets: any SecretStorage, container: SharedContainer, page: Page) throws -> WidgetScreen {
    guard let share = try AuxiliaryShare.load(from: sharedSecrets),
          let sealingKey = try SharedSealingKey.load(from: sharedSecrets) else { return showSignInLink() }
    try container.requests.submit(kind: "entity-set", key: page, share: share, sealingKey: sealingKey)
    return .requested
}

func brokeredVsDirectModeHost(vault: Vault, container: SharedContainer, sealingKey: SharedSealingKey, api: OrdersAPI, client: AppClient) async throws {
    let broker = BrokeredFulfilment(vault: vault, container: container, sealingKey: sealingKey)
    let outcomes = try await broker.fulfilPending { request, vault in
        let page = try request.decodeKey(Page.self)
        let response = try await api.page(page, tokens: try .host(client: client, vault: vault, publishingEndIn: container))
        return FetchedData(payload: response.body, etag: response.headers["ETag"], lifetime: 900)
    }
    _ = outcomes
}

func brokeredVsDirectModeReading(container: SharedContainer, page: Page, share: AuxiliaryShare) throws {
    if let reading = try container.snapshots.read(kind: "entity-set", key: page, using: share) {
        render(reading.snapshot.payload, stale: reading.freshness != .fresh, age: reading.age)
    }
}

// TandemVault.docc/AddingAWidgetToAReleasedApp.md
func addingAWidgetToAReleasedApp(vault: Vault, enteredPasscode: String, share: AuxiliaryShare) throws {
    let hostSecrets = KeychainSecretStorage(service: "com.example.app.vault",
                                            accessGroup: "TEAMID.com.example.app")
    let sharedSecrets = KeychainSecretStorage(service: "com.example.app.extensions",
                                              accessGroup: "TEAMID.com.example.shared")
    _ = hostSecrets

    try vault.unlock(passcode: enteredPasscode)          // the user's ordinary unlock
    try vault.enableExtensionAccess(shared: sharedSecrets) // does nothing once it works

    try vault.unlock(pairedKey: share)   // the share that came with the request
    defer { vault.lock() }
    let tokens = try vault.value(Tokens.self, forKey: "tokens")
    _ = tokens
}

/// What the app keeps in its vault, as the articles name it.
struct Tokens: Codable, Sendable { var access = "" }

// TandemVault.docc/TandemVault.md
func tellUser(_ failed: FailedPasscodeAttempts) async {}
func askPasscode() async -> String { "" }

func tandemVault(privateDirectory: URL, passcode: String, tokens: Tokens, hostSecrets: KeychainSecretStorage) async throws {
    do {
        let vault = Vault(directory: privateDirectory,
                          secrets: KeychainSecretStorage(service: "com.example.app.vault",
                                                         accessGroup: "TEAMID.com.example.app"))
        try vault.create(passcode: passcode, policy: .default)
        try vault.set(tokens, forKey: "tokens")
        try vault.enableExtensionAccess(shared: KeychainSecretStorage(service: "com.example.app.extensions",
                                                                      accessGroup: "TEAMID.com.example.shared"))
        vault.lock()
    }
    do {
        let vault = Vault(directory: privateDirectory, secrets: hostSecrets,
                          biometrics: KeychainBiometricSecretStore(service: "com.example.app.vault.biometric",
                                                                   accessGroup: "TEAMID.com.example.app"))
        do {
            let failed = try await vault.unlock(biometricsReason: "Unlock your account")
            if failed.count > 0 { await tellUser(failed) }
        } catch {
            try vault.unlock(passcode: await askPasscode())
        }
    }
}

// TandemSharedContainer.docc/Extension/SharedContainer.md
func sharedContainerExtension(appGroupURL: URL, key: Page, share: AuxiliaryShare, sealingKey: SharedSealingKey) throws {
    let container = try SharedContainer(directory: appGroupURL)
    try container.requests.submit(kind: "entities", key: key, share: share, sealingKey: sealingKey)
    let reading = try container.snapshots.read(kind: "entities", key: key, using: share)
    try container.events.enqueue(QueuedEvent(name: "widget.render"), sealingKey: sealingKey)
    _ = reading
}
