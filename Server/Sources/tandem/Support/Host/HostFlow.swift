import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemServer
import TandemSharedContainer
import TandemTool
import TandemURLSession
import TandemVault
import TandemWidgets

/// The command-line host's one flow, run as onboarding (`tandem host onboard`), restoring
/// (`tandem host unlock`) or the background flow (`tandem host fulfil`, `tandem host run`), the
/// way an app wires it:
///
/// ```
/// configuration → vault → authentication → extension access → settings → widget actions → extension communication
/// ```
///
/// The vault comes before authentication so that a sign-in keeps its tokens in the vault at
/// once, and so that a restore can tell from the vault's tokens whether the session continues.
enum HostFlow {
    /// The flow's steps.
    ///
    /// - Parameters:
    ///   - home: The app's directories; onboarding saves the configuration there for the widget.
    ///   - source: Where onboarding reads the configuration.
    ///   - protection: How onboarding protects a new vault.
    ///   - snapshotLifetime: Seconds the rows the background flow fetches count as fresh.
    ///   - reloader: Reloads the widgets after the background flow fulfilled a request (the phone
    ///     day's widgets; `nil` for the command-line widget, which has no timeline to reload).
    ///   - onFulfilment: Told the background flow's outcomes, request by request.
    ///   - onActions: Told each run's widget actions, request by request.
    ///   - pushDevice: The host's device with the APNs stand-in, when it takes pushes: the
    ///     flow then registers its token and the widgets' with the server, and what the
    ///     registry's widgets show (they fetch directly: the command-line widget's and the phone
    ///     day's pushed widget's mode).
    ///   - pushTimeZone: The device's time zone for the server's push budget.
    static func flow(
        home: HostHome, source: ConfigurationStep.Source? = nil, protection: VaultStep.Protection = .passcode(cost: .calibrated()),
        snapshotLifetime: TimeInterval = DataWidgetSchedule.defaultFreshness, reloader: (any WidgetReloader)? = nil,
        pushDevice: SimulatedAPNsDevice? = nil, pushTimeZone: String? = TimeZone.current.identifier, onFulfilment: @escaping @Sendable ([FulfilmentOutcome]) -> Void = { _ in },
        onActions: @escaping @Sendable ([ActionExecutionOutcome]) -> Void = { _ in }
    ) -> Flow {
        var steps: [any Step] = [
            ConfigurationStep(source: source, save: { try home.saveClientConfiguration($0) }),
            VaultStep(protection: protection),
            AuthenticationStep(stepUpKey: { context in try VaultStepUpKey.key(in: context.vault) }),
            ExtensionAccessStep(),
        ]
        if let pushDevice {
            // The stand-in plays APNs' development service: sandbox tokens.
            steps.append(PushRegistrationStep(
                environment: .sandbox, delivery: .direct, timeZone: { pushTimeZone }, hostToken: { pushDevice.token }))
        }
        steps += [
            SettingsStep(),
            // The passcode opened the restoring flow: the user is present, and the vault's
            // step-up key may sign (a phone uses the Secure Enclave's, behind Face ID).
            ActionExecutionStep(
                reloader: reloader, stepUpKey: { context in try VaultStepUpKey.key(in: context.vault) }, analytics: try? home.analytics(),
                onExecution: onActions),
            ExtensionCommunicationStep(reloader: reloader, snapshotLifetime: snapshotLifetime, onFulfilment: onFulfilment),
        ]
        return Flow(steps)
    }

    /// The host's device with the APNs stand-in whose devices folder is `devices`: the token it
    /// registered before (kept in the host's private directory) while the stand-in still knows
    /// it, else a new one.
    static func pushDevice(home: HostHome, devices: String) throws -> SimulatedAPNsDevice {
        let file = home.shared.hostDirectory.appendingPathComponent("apns-device-token")
        let known = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Hex.decode($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map { Data($0) }
        let device = try SimulatedAPNsDevice.register(in: URL(fileURLWithPath: devices), reusing: known)
        if device.token != known {
            try Data(Hex.encode(device.token).utf8).write(to: file, options: .atomic)
        }
        return device
    }

    /// The context the flow runs in: this home's vault, container and extensions' storage,
    /// requests over `transport` (a new URLSession by default), and the configuration saved at
    /// onboarding (if any), on `clock`.
    static func context(
        home: HostHome, presenters: FlowPresenters = FlowPresenters(), clock: any WallClock = SystemClock(),
        transport: any HTTPTransport = URLSessionTransport()
    ) -> FlowContext {
        FlowContext(
            vault: home.vault, container: home.container, sharedSecrets: home.sharedSecrets, transport: transport,
            appVersion: TandemServerInfo.version, presenters: presenters, configuration: try? home.clientConfiguration(),
            logger: ToolLogger.make(label: "tandem.flows"), clock: clock)
    }

    /// Writes the flow's progress to standard error, one line per step, when `TANDEM_LOG_LEVEL`
    /// is `info` or more detailed (standard output keeps the command's JSON result).
    static let progress: @Sendable (FlowEvent) -> Void = { event in
        guard ToolLogger.level <= .info else { return }
        switch event {
        case .stepFinished, .stepFailed, .finished: FileHandle.standardError.write(Data("flow: \(event)\n".utf8))
        case .started, .stepStarted: break
        }
    }

    /// What `host onboard` (and an SSO onboarding) prints once the app is ready.
    static func onboarded(_ configuration: ClientConfiguration, vault: String) -> [String: Any] {
        [
            "state": "ready", "client_id": configuration.clientID, "security_mode": configuration.securityMode.rawValue,
            "extension_grant": configuration.securityMode == .oauth, "vault": vault,
        ]
    }
}
