import Foundation
import Logging
import TandemAuth
import TandemHost
import TandemServer
import TandemSharedContainer
import TandemTool
import TandemURLSession
import TandemVault
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets

/// One app on the simulated phone, played by Tandem's real code over directories of its own:
/// the command-line host's flow (onboarded before the day with a device-only vault, restored
/// when the user opens it, the background flow when iOS grants time, its fulfilment reloading
/// the widgets), and the business widget (`DataWidgetProvider` with the default schedule, in
/// `mode`), launched anew for every reload.
struct PhoneDayHostApp: PhoneDayApp {
    typealias Provider = DataWidgetProvider

    /// The widget's kind.
    static let kind = "phone-day"

    let mode: PhoneDayWidgetMode
    let root: URL
    /// The App Group directories as the widget opens them (handles over files; nothing in memory).
    let shared: ExtensionHome
    let configuration: ClientConfiguration
    let clock: VirtualClock
    let lock: DeviceLock
    let widgets: [WidgetInstance<DataWidgetConfiguration>]

    /// Onboards an app of `mode` in `root` against `server`, as the user did before the day.
    static func onboard(mode: PhoneDayWidgetMode, root: URL, server: URL, clock: VirtualClock, lock: DeviceLock) async throws -> PhoneDayHostApp {
        let home = try HostHome(root: root)
        let source = ConfigurationStep.Source.server(server, clientID: ServerAdministration.demoClientID, allowedServers: try ServerAllowlist([server]))
        let presenters = FlowPresenters(signIn: HeadlessSignIn(username: ServerAdministration.demoUsername, password: PhoneDayServer.password))
        let context = HostFlow.context(home: home, presenters: presenters, clock: clock)
        _ = try await HostFlow.flow(home: home, source: source, protection: .deviceOnly).run(.onboard, in: context)
        let widget = WidgetInstance(kind: kind, family: .systemMedium, configuration: PhoneDayServer.widgetConfiguration)
        return PhoneDayHostApp(
            mode: mode, root: root, shared: home.shared, configuration: try context.requireConfiguration(), clock: clock, lock: lock, widgets: [widget])
    }

    func open(widgets: WidgetReloads) async -> Bool {
        await run(.restore, widgets: widgets)
    }

    func backgroundRun(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool {
        // Before the first unlock the vault's keychain items cannot be read: the flow would stop
        // at once with the device locked.
        guard protectedDataAvailable else { return false }
        return await run(.background, widgets: widgets)
    }

    /// One launch of the app: a new home (a new vault instance, as a relaunched process has).
    private func run(_ phase: FlowPhase, widgets: WidgetReloads) async -> Bool {
        do {
            let home = try HostHome(root: root)
            let flow = HostFlow.flow(home: home, protection: .deviceOnly, reloader: PhoneDayWidgetCenter(reloads: widgets))
            _ = try await flow.run(phase, in: HostFlow.context(home: home, clock: clock))
            return true
        } catch {
            ToolLogger.make(label: "tandem.phone-day").notice("the app's flow failed", metadata: ["phase": "\(phase)", "error": "\(error)"])
            return false
        }
    }

    func widgetProcess() -> DataWidgetProvider {
        let logger = ToolLogger.make(label: "tandem.widgets")
        let widgetMode: DataWidgetMode
        switch mode {
        case .brokered: widgetMode = .brokered
        case .direct:
            widgetMode = .direct(AppClient(
                configuration: configuration, role: "widget", appVersion: TandemServerInfo.version, transport: URLSessionTransport(),
                logger: logger, clock: clock))
        }
        return DataWidgetProvider(
            kind: Self.kind, scheme: configuration.urlScheme ?? "tandem-demo", container: shared.container,
            credentials: PhoneDayCredentials(base: SharedSecretCredentials(storage: shared.sharedSecrets, vaultName: shared.vaultName), lock: lock),
            mode: widgetMode, clock: clock, logger: logger)
    }

    func version(shownBy entry: WidgetContentEntry) -> Int? {
        entry.content.rows.compactMap { PhoneDayServer.version(of: $0.value) }.min()
    }
}
