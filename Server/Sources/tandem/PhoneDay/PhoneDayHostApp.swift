import Foundation
import Logging
import TandemAuth
import TandemHost
import TandemPlatform
import TandemServer
import TandemSharedContainer
import TandemTool
import TandemVault
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets

/// One app on the simulated phone, played by Tandem's real code over directories of its own:
/// the command-line host's flow (onboarded before the day with a device-only vault, restored
/// when the user opens it, the background flow when iOS grants time, its fulfilment reloading
/// the widgets), and the business widget (`DataWidgetProvider` with the default schedule, in
/// `mode`), launched anew for every reload.
///
/// An app that takes pushes (``PhoneDayWidgetMode/pushed``) has two devices with the APNs
/// stand-in: the host's, whose token its flow registers (`PushRegistrationStep`), and the
/// widgets', whose token the widget extension leaves sealed in the shared container for the
/// host to register. Its widget fetches again on every reload, and a
/// background push runs the background flow knowing the server's data changed; its host keeps
/// the placed widget in the container's registry, as `WidgetCenterRegistry` does on iOS, so
/// that flow knows which rows to fetch again. (The brokered and direct apps keep the day's
/// earlier setup, without the registry, so their figures stay those pinned before pushes.)
struct PhoneDayHostApp: PhoneDayApp {
    typealias Provider = DataWidgetProvider

    /// The host's and the widgets' devices with the APNs stand-in.
    struct PushDevices: Sendable {
        /// The host app's APNs device token.
        let host: SimulatedAPNsDevice
        /// The widget extension's WidgetKit push token.
        let widgets: SimulatedAPNsDevice
    }

    /// The widget's kind.
    static let kind = "phone-day"
    /// How old a pushed widget's rows may be before a reload fetches them again: none. WidgetKit
    /// reloads on a push without saying why, and a pushed widget's reloads are pushes (and a
    /// rare safety net): each comes after a change, even one that lands a moment after the
    /// widget's last fetch.
    static let revalidation: TimeInterval = 0

    let mode: PhoneDayWidgetMode
    let root: URL
    /// The App Group directories as the widget opens them (handles over files; nothing in memory).
    let shared: ExtensionHome
    let configuration: ClientConfiguration
    let clock: VirtualClock
    let lock: DeviceLock
    let widgets: [WidgetInstance<DataWidgetConfiguration>]
    /// The devices pushes reach, for an app that takes them.
    let pushDevices: PushDevices?
    /// The app's way to the server, one for all its launches and its widget's
    /// (``PhoneDayTransport``: it keeps nothing between requests, and the day's figures do not
    /// depend on it).
    let transport: PhoneDayTransport

    /// Onboards an app of `mode` in `root` against `server`, as the user did before the day; an
    /// app that takes pushes gets its devices in the stand-in's `apnsDevices` folder and
    /// registers both tokens before the day.
    static func onboard(
        mode: PhoneDayWidgetMode, root: URL, server: URL, apnsDevices: URL?, clock: VirtualClock, lock: DeviceLock
    ) async throws -> PhoneDayHostApp {
        let home = try HostHome(root: root)
        let transport = PhoneDayTransport()
        let source = ConfigurationStep.Source.server(server, clientID: ServerAdministration.demoClientID, allowedServers: try ServerAllowlist([server]))
        let presenters = FlowPresenters(signIn: HeadlessSignIn(username: PhoneDayServer.username(mode), password: PhoneDayServer.password))
        let context = HostFlow.context(home: home, presenters: presenters, clock: clock, transport: transport)
        var pushDevices: PushDevices?
        if mode.takesPushes, let apnsDevices {
            pushDevices = PushDevices(
                host: try SimulatedAPNsDevice.register(in: apnsDevices, reusing: nil),
                widgets: try SimulatedAPNsDevice.register(in: apnsDevices, reusing: nil))
        }
        _ = try await HostFlow.flow(home: home, source: source, protection: .deviceOnly, pushDevice: pushDevices?.host, pushTimeZone: "UTC").run(.onboard, in: context)
        let widget = WidgetInstance(kind: kind, family: .systemMedium, configuration: PhoneDayServer.widgetConfiguration)
        if let pushDevices {
            // The host mirrors the placed widget into the registry (WidgetCenterRegistry on
            // iOS), so that a background push knows which rows to fetch again.
            try home.container.widgets.register(widget.configuration.registration(id: kind, kind: kind, family: widget.family))
            // Once the widget is placed, WidgetKit hands the extension its push token, which its
            // push handler leaves sealed in the container; the app's next run registers it.
            guard let sealingKey = try SharedSealingKey.load(from: home.sharedSecrets) else {
                throw CommandFailure("the phone day's \(mode.rawValue) app has no shared sealing key after onboarding")
            }
            try home.container.widgetPushToken.write(pushDevices.widgets.token, sealingKey: sealingKey)
            let flow = HostFlow.flow(home: home, protection: .deviceOnly, pushDevice: pushDevices.host, pushTimeZone: "UTC")
            _ = try await flow.run(.restore, in: HostFlow.context(home: home, clock: clock, transport: transport))
        }
        return PhoneDayHostApp(
            mode: mode, root: root, shared: home.shared, configuration: try context.requireConfiguration(), clock: clock, lock: lock,
            widgets: [widget], pushDevices: pushDevices, transport: transport)
    }

    /// Which kind of push `token` (lower-case hex, as APNs delivered it) is for this app, if any.
    func pushKind(of token: String) -> PhoneDayPush.Kind? {
        guard let pushDevices else { return nil }
        switch token {
        case Hex.encode(pushDevices.host.token): return .background
        case Hex.encode(pushDevices.widgets.token): return .widgets
        default: return nil
        }
    }

    func open(widgets: WidgetReloads) async -> Bool {
        await run(.restore, widgets: widgets)
    }

    func backgroundPush(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool {
        guard protectedDataAvailable else { return false }
        // As RemotePushes.runBackgroundFlow: rows fetched before now are old.
        return await run(.background, widgets: widgets, contentChangedAt: clock.now)
    }

    func backgroundRun(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool {
        // Before the first unlock the vault's keychain items cannot be read: the flow would stop
        // at once with the device locked.
        guard protectedDataAvailable else { return false }
        return await run(.background, widgets: widgets)
    }

    /// One launch of the app: a new home (a new vault instance, as a relaunched process has);
    /// `contentChangedAt` says when a push said the server's data changed.
    private func run(_ phase: FlowPhase, widgets: WidgetReloads, contentChangedAt: Date? = nil) async -> Bool {
        do {
            let home = try HostHome(root: root)
            let flow = HostFlow.flow(
                home: home, protection: .deviceOnly, reloader: PhoneDayWidgetCenter(reloads: widgets), pushDevice: pushDevices?.host, pushTimeZone: "UTC")
            let context = HostFlow.context(home: home, clock: clock, transport: transport)
            context.contentChangedAt = contentChangedAt
            _ = try await flow.run(phase, in: context)
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
        case .direct, .pushed:
            widgetMode = .direct(AppClient(
                configuration: configuration, role: "widget", appVersion: TandemServerInfo.version, transport: transport,
                logger: logger, clock: clock))
        }
        return DataWidgetProvider(
            kind: Self.kind, scheme: configuration.urlScheme ?? "tandem-demo", container: shared.container,
            credentials: widgetCredentials,
            mode: widgetMode, schedule: DataWidgetSchedule(revalidation: mode.takesPushes ? Self.revalidation : nil), clock: clock, logger: logger)
    }

    /// The user taps Approve on the row of the app's `number`th approval: the intent's own dispatch, with the
    /// widget's credentials, and in the app's process the host's executor (a new home, as a
    /// launch for the intent opens one), on the day's clock.
    func tap(_ number: Int, inApp: Bool) async -> PhoneDayTapResult {
        let submitter = WidgetActionSubmitter(container: shared.container, credentials: widgetCredentials, clock: clock)
        var executor: HostActionExecutor?
        if inApp {
            let root = root
            let clock = clock
            let transport = transport
            executor = HostActionExecutor(context: { HostFlow.context(home: try HostHome(root: root), clock: clock, transport: transport) })
        }
        do {
            let dispatched = try await WidgetActionDispatch(submitter: submitter, executor: executor)
                .dispatch(.approve, on: try PhoneDayServer.approvalAction(mode, number), surface: .widget, family: WidgetFamily.systemMedium.rawValue)
            let executed = if case .done = dispatched.outcome { true } else { false }
            return PhoneDayTapResult(request: dispatched.request.id, expiresAt: dispatched.request.expiresAt, executed: executed)
        } catch {
            ToolLogger.make(label: "tandem.phone-day").notice("a tap wrote no request", metadata: ["error": "\(error)"])
            return PhoneDayTapResult(request: nil, expiresAt: nil, executed: false)
        }
    }

    /// Which of `requests` the host has decided on the server (a `done` result in the container).
    func executed(_ requests: [String]) async -> Set<String> {
        guard let sealingKey = try? SharedSealingKey.load(from: shared.sharedSecrets) else { return [] }
        return Set(requests.filter { id in
            if case .done = shared.container.actions.result(id: id, sealingKey: sealingKey)?.outcome { true } else { false }
        })
    }

    /// The secrets as the widget extension reads them: none before the first unlock.
    private var widgetCredentials: PhoneDayCredentials {
        PhoneDayCredentials(base: SharedSecretCredentials(storage: shared.sharedSecrets, vaultName: shared.vaultName), lock: lock)
    }

    func version(shownBy entry: WidgetContentEntry) -> Int? {
        return entry.content.rows.compactMap { PhoneDayServer.version(of: $0.value) }.min()
    }
}
