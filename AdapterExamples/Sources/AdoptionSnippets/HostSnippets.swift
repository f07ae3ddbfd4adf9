// TandemHost's and TandemSharedContainer's examples (Sources/*/Apple/), each verbatim in a body.
import AppIntents
import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets
import UIKit

// AppRefreshScheduler.swift
func appRefreshScheduler(flow: Flow, context: FlowContext) async throws {
    // In application(_:didFinishLaunchingWithOptions:):
    let scheduler = try AppRefreshScheduler(identifier: "com.example.sales.refresh", repeatInterval: .seconds(30 * 60)) {
        (try? await flow.run(.background, in: context)) != nil
    }
    // When the app moves to the background:
    try await scheduler.schedule(earliestBegin: Date(timeIntervalSinceNow: 30 * 60))
}

// CameraQRScanner.swift
@MainActor
func cameraQRScanner(passcodePrompt: any PasscodePrompt) -> FlowPresenters {
    let presenters = FlowPresenters(passcode: passcodePrompt, signIn: WebAuthenticationSignIn(), scanner: CameraQRScanner())
    return presenters
}

// RemotePushes.swift
final class PushingAppDelegate: NSObject, UIApplicationDelegate {
    let flow: Flow
    let context: FlowContext

    init(flow: Flow, context: FlowContext) {
        self.flow = flow
        self.context = context
    }

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        RemotePushes.register()
        return true
    }
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        RemotePushes.didRegister(deviceToken: deviceToken)
    }
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult {
        guard RemotePushes.isContentChange(userInfo) else { return .noData }
        return await RemotePushes.runBackgroundFlow(flow, in: context)
    }
}

// SystemBackgroundRefresh.swift
@MainActor
func systemBackgroundRefresh(container: SharedContainer) throws {
    try container.setBackgroundRefresh(SystemBackgroundRefresh.current())
}

// TandemHostAppIntents.swift
struct SalesAppIntents: AppIntentsPackage {
    static var includedPackages: [any AppIntentsPackage.Type] { [TandemHostAppIntents.self] }
}

// WebAuthenticationSignIn.swift
@MainActor
func webAuthenticationSignIn(passcodePrompt: any PasscodePrompt) -> FlowPresenters {
    let presenters = FlowPresenters(passcode: passcodePrompt, signIn: WebAuthenticationSignIn())
    return presenters
}

// WidgetCenterRegistry.swift
func widgetCenterRegistry(container: SharedContainer, customers: DataWidgetConfiguration) async throws {
    let registry = WidgetCenterRegistry(container: container, kinds: ["orders"],
                                        staticConfigurations: ["top-customers": customers])
    try await registry.sync()
}

// AppGroupContainer.swift (TandemSharedContainer)
func appGroupContainer() throws -> SharedContainer {
    let container = try AppGroupContainer.sharedContainer(groupIdentifier: "group.com.example.sales")
    return container
}

// Approvals/ApprovalShortcuts.swift
func approvalShortcuts(configuration: ApprovalShortcutsConfiguration) {
    ApprovalShortcuts.install(configuration)
    ApprovalShortcuts.updateAppShortcutParameters()       // after each refresh of the approvals
}

// Approvals/ApprovalShortcutsConfiguration.swift
func approvalShortcutsConfiguration(approvalsStore: ApprovalsStore, appModel: SalesAppModel) {
    ApprovalShortcuts.install(ApprovalShortcutsConfiguration(
        approvals: { try await approvalsStore.pending().map { ApprovalEntity($0.action, title: $0.title) } },
        session: { try await appModel.unlockedSession() },          // runs the restoring flow if locked
        stepUpKey: { _, approval in
            try SecureEnclaveStepUpKey.key(tag: "com.example.sales.step-up", reason: "Approve \(approval.title)")
        },
        showApprovals: { appModel.route = .approvals }))
}

// Approvals/SecureEnclaveStepUpKey.swift
func secureEnclaveStepUpKey() {
    let stepUpKey: @Sendable (FlowContext) async throws -> (any DPoPSigner)? = { _ in
        try SecureEnclaveStepUpKey.key(tag: "com.example.sales.step-up")
    }
    Flow([ /* … */ AuthenticationStep(stepUpKey: stepUpKey), /* … */ ActionExecutionStep(stepUpKey: stepUpKey) ])
}

// KeychainSecretStorage.swift (TandemPlatform)
func keychainSecretStorage() -> (KeychainSecretStorage, KeychainSecretStorage) {
    // The host's private store: the app's own group (team id + bundle id).
    let host = KeychainSecretStorage(service: "com.example.app.vault",
                                     accessGroup: "TEAMID.com.example.app")
    // The store shared with extensions: a group both targets list in their entitlements.
    let shared = KeychainSecretStorage(service: "com.example.app.extensions",
                                       accessGroup: "TEAMID.com.example.shared")
    return (host, shared)
}

// KeychainBiometricSecretStore.swift (TandemVault)
func keychainBiometricSecretStore(privateDirectory: URL, hostSecrets: KeychainSecretStorage) -> Vault {
    let biometrics = KeychainBiometricSecretStore(service: "com.example.app.vault.biometric",
                                                  accessGroup: "TEAMID.com.example.app")
    let vault = Vault(directory: privateDirectory, secrets: hostSecrets, biometrics: biometrics)
    return vault
}
