import Foundation
import Logging
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemVault

/// What every step of a flow shares: the app's vault, the shared container and the extensions'
/// secret storage, the transport requests go out through, the presenters that ask the user
/// things, a logger, the clock, and what earlier steps learned (the configuration, whether the user signed
/// in during this run).
///
/// ```swift
/// let context = FlowContext(
///     vault: vault, container: container, sharedSecrets: sharedKeychain,
///     transport: URLSessionTransport(), appVersion: "1.4.0", presenters: presenters)
/// try await flow.run(.onboard, in: context)
/// ```
public final class FlowContext: Sendable {
    /// The host's vault (its private container).
    public let vault: Vault
    /// The shared container the extensions read.
    public let container: SharedContainer
    /// The extensions' secret storage (the shared keychain on a phone): the auxiliary share and
    /// the shared sealing key.
    public let sharedSecrets: any SecretStorage
    /// How requests reach the network.
    public let transport: any HTTPTransport
    /// The app's version, sent in the app headers.
    public let appVersion: String
    /// What asks the user for things.
    public let presenters: FlowPresenters
    /// Where steps log (never a secret).
    public let logger: Logger
    /// The time the flow and its steps read and wait on: step durations, the freshness of cached
    /// listings, the SSO approval's polling, token expiries.
    public let clock: any WallClock

    private let state: Locked<State>

    private struct State {
        var configuration: ClientConfiguration?
        var signedInThisRun = false
        var widgetsRearmed = false
        var stepUpKeyEnrolledWithSignIn = false
        var ssoSignIn: SSOSignIn?
        var contentChangedAt: Date?
    }

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - configuration: The app's configuration when already known (a restart); the
    ///     configuration step sets it otherwise.
    ///   - clock: What the flow reads the time from and waits on; a `ManualClock` in tests.
    public init(
        vault: Vault, container: SharedContainer, sharedSecrets: any SecretStorage, transport: any HTTPTransport,
        appVersion: String, presenters: FlowPresenters, configuration: ClientConfiguration? = nil,
        logger: Logger = Logger(label: "tandem.flows"), clock: any WallClock = SystemClock()
    ) {
        self.vault = vault
        self.container = container
        self.sharedSecrets = sharedSecrets
        self.transport = transport
        self.appVersion = appVersion
        self.presenters = presenters
        self.logger = logger
        self.clock = clock
        state = Locked(State(configuration: configuration))
    }

    /// The app's configuration, once known.
    public var configuration: ClientConfiguration? {
        get { state.withLock { $0.configuration } }
        set { state.withLock { $0.configuration = newValue } }
    }

    /// Whether the user signed in during this run (onboarding, or a restore whose session had
    /// ended): the extension access step then re-arms the widgets with a new grant.
    public var signedInThisRun: Bool {
        get { state.withLock { $0.signedInThisRun } }
        set { state.withLock { $0.signedInThisRun = newValue } }
    }

    /// The SSO passcode onboarding redeems instead of a browser sign-in, set by the
    /// configuration step from an SSO link or QR code.
    public var ssoSignIn: SSOSignIn? {
        get { state.withLock { $0.ssoSignIn } }
        set { state.withLock { $0.ssoSignIn = newValue } }
    }

    /// When the server last said its data changed (a background push arrived): the background
    /// flow fetches again every configured widget's rows fetched before then, fresh or not.
    public var contentChangedAt: Date? {
        get { state.withLock { $0.contentChangedAt } }
        set { state.withLock { $0.contentChangedAt = newValue } }
    }

    /// Whether this run's sign-in enrolled the user's step-up key (set by ``AuthenticationStep``):
    /// nothing needs to enrol it afterwards.
    public var stepUpKeyEnrolledWithSignIn: Bool {
        get { state.withLock { $0.stepUpKeyEnrolledWithSignIn } }
        set { state.withLock { $0.stepUpKeyEnrolledWithSignIn = newValue } }
    }

    /// Whether the extension access step issued the widgets a new grant during this run.
    public var widgetsRearmed: Bool {
        get { state.withLock { $0.widgetsRearmed } }
        set { state.withLock { $0.widgetsRearmed = newValue } }
    }

    /// The configuration, or a ``StepFailure`` naming the step that should have set it.
    public func requireConfiguration() throws(StepFailure) -> ClientConfiguration {
        guard let configuration else { throw StepFailure("no app configuration yet: the configuration step runs first") }
        return configuration
    }

    /// The auxiliary share in the extensions' storage, or `nil` before extension access is enabled.
    public func auxiliaryShare() throws(VaultError) -> AuxiliaryShare? {
        do {
            return try AuxiliaryShare.load(from: sharedSecrets, vaultName: vault.name)
        } catch {
            throw VaultError(error)
        }
    }

    /// The auxiliary share, or a ``StepFailure`` saying extension access is not enabled.
    public func requireAuxiliaryShare() throws -> AuxiliaryShare {
        guard let share = try auxiliaryShare() else {
            throw StepFailure("extension access is not enabled: no auxiliary share in the extensions' storage")
        }
        return share
    }

    /// The app's clients for `role`, over this context's transport. When the configuration
    /// requires DPoP, the OAuth client signs with ``hostDPoPKey``.
    public func client(role: String = "host") throws(StepFailure) -> AppClient {
        let configuration = try requireConfiguration()
        return AppClient(
            configuration: configuration, role: role, appVersion: appVersion, transport: transport,
            logger: logger, clock: clock, dpopKey: configuration.dpopRequired ? hostDPoPKey : nil)
    }

    /// The host's DPoP key, in the host's own secret storage (the vault's): the user's grant is
    /// bound to it when the app requires DPoP.
    public var hostDPoPKey: DPoPKeyStore { DPoPKeyStore.host(in: vault.secretStorage) }

    /// The widgets' DPoP key, in the extensions' secret storage: the host makes it and binds
    /// the widgets' grant to it in the token exchange; the widgets sign with it.
    public var widgetsDPoPKey: DPoPKeyStore { DPoPKeyStore.widgets(in: sharedSecrets) }
}
