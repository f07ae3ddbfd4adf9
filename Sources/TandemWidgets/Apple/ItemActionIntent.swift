// iOS 17 SDK or later only: see the guard's reason in DataWidgetIntent.swift. `Button(intent:)`,
// which runs this intent from a widget, is iOS 17's. The iOS 26 part (`supportedModes`,
// `continueInForeground`) sits behind `canImport(AppIntents, _version: 250)`: AppIntents is 227.20
// in the iOS 18.6 SDK and 300.2.3 in 26.2, and `IntentModes` does not exist before 26.
#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import Logging
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel

/// What an Approve or Reject button of a business widget runs (`Button(intent:)`, iOS 17): it
/// writes a sealed action request for the host (``WidgetActionDispatch``) and, where the system
/// runs it in the host app's process, executes it there at once with the host's grant. WidgetKit
/// reloads the widget after an interactive intent, so the row shows the result, or
/// ``TandemWidgetModel/WidgetActionState/pending(_:)`` until the host's result arrives. The
/// widget never calls the action endpoint: its grant is read-only.
///
/// **Which process runs a tap.** Apple's "Adding interactivity to widgets and Live Activities"
/// says a widget's intent runs in the widget extension's process by default, and in the app's
/// when the intent conforms to `ForegroundContinuableIntent` (among others); "Configuring the
/// runtime behavior of your app intents" says an intent that may run in the foreground runs from
/// the app bundle. So:
/// - iOS 16: no interactive widgets; a tap opens the app (`widgetURL`).
/// - iOS 17 and 18: the app's process, in the background (the conformance to
///   `ForegroundContinuableIntent` below, declared unavailable in app extensions as that
///   protocol is): the system launches the app without its UI, and the intent executes the
///   request with the executor the app installed (TandemHost's `HostActionExecutor`).
/// - iOS 26: the same, by ``supportedModes`` (background with a dynamic foreground, which Apple
///   documents as `ForegroundContinuableIntent`'s behaviour).
/// - Wherever it runs in the extension after all (an intent without an installed executor, a
///   system that keeps it there), the request waits in the container for the host's next run
///   (a push, a background task, the user opening the app) for ``TandemSharedContainer/ActionRequest/defaultLifetime``.
///
/// Apple documents neither a budget for these launches nor what a force-quit does to them; see
/// "Taps on a real phone" in the TandemWidgets documentation for what to check on a device.
///
/// It runs only on an unlocked device (``authenticationPolicy`` is `.requiresAuthentication`;
/// the default, `.alwaysAllowed`, would let it run on a locked one).
///
/// The system makes the intent with `init()` and sets its parameters, so it cannot be handed the
/// container: the extension installs it once, when it starts, as it installs the catalog.
///
/// ```swift
/// @main struct SalesWidgets: WidgetBundle {
///     init() {
///         DataWidgetCatalog.install(from: Widgets.provider)
///         ItemActionIntent.install(from: Widgets.provider)
///     }
///     var body: some Widget { ApprovalsWidget() }
/// }
/// ```
///
/// and in the app, while it launches (the system may launch it for a tap):
///
/// ```swift
/// ItemActionIntent.install(
///     container: services.container, credentials: SharedSecretCredentials(storage: services.sharedSecrets),
///     executor: HostActionExecutor(context: { services.context(presenters: FlowPresenters()) }, reloader: WidgetCenterReloader()))
/// ```
///
/// **Items above the step-up threshold** (``needsApp``) are decided in the app, where the user
/// confirms with Face ID or the passcode. The request is written first in every case, so the
/// app's foreground run (TandemHost's `ActionExecutionStep` with a step-up key) finds it;
/// how the app comes forward depends on the system:
/// - iOS 26: ``supportedModes`` is background with a dynamic foreground, and `perform()` calls
///   `continueInForeground(_:alwaysConfirm:)` for such an item only: one tap opens the app.
/// - iOS 17 to 18 (and any system, when built with an SDK before 26): `openAppWhenRun` is one
///   value for the whole type (it would open the app on every tap, low amounts too), and
///   `ForegroundContinuableIntent` is unavailable in app extensions, where this intent runs. So
///   the request waits; the host's background run answers "Open the app to approve", and the
///   row's tap opens the app, which executes it once the user confirms.
@available(iOS 17.0, *)
public struct ItemActionIntent: AppIntent {
    /// The intent's name, as the system shows it.
    public static var title: LocalizedStringResource { "Decide an approval" }
    /// What it does.
    public static var description: IntentDescription? {
        IntentDescription("Approves or rejects an item a widget shows; the app executes it.")
    }
    /// Only widget buttons run it: Shortcuts and Spotlight do not offer it.
    public static var isDiscoverable: Bool { false }
    /// Only on an unlocked phone: a tap on a locked one (StandBy, an iPad's Lock Screen) asks
    /// the user to unlock first, so whoever holds a locked phone cannot decide an item.
    public static var authenticationPolicy: IntentAuthenticationPolicy { .requiresAuthentication }

    /// The destination, such as `sales`.
    @Parameter(title: "Destination")
    public var destination: String
    /// The entity set, such as `Approvals`.
    @Parameter(title: "Entity set")
    public var entitySet: String
    /// The item's id in its set, such as `PR-1003`.
    @Parameter(title: "Item")
    public var item: String
    /// The item's `ETag` as the widget showed it.
    @Parameter(title: "ETag")
    public var etag: String
    /// The item's amount as the row shows it, if it has one.
    @Parameter(title: "Amount")
    public var amount: String?
    /// Approve or reject.
    @Parameter(title: "Action", default: .approve)
    public var action: Action
    /// The widget family tapped (`WidgetFamily`'s raw value), for analytics.
    @Parameter(title: "Family")
    public var family: String?
    /// Whether the app's policy asks the user to confirm in the app.
    @Parameter(title: "Needs the app", default: false)
    public var needsApp: Bool

    /// An empty intent, as the system creates it before setting its parameters.
    public init() {}

    /// The intent of a tap on `action` of a row's item, in `family`.
    public init(_ action: ItemAction, on target: WidgetRowAction, family: TandemWidgetModel.WidgetFamily? = nil) {
        destination = target.destination
        entitySet = target.entitySet
        item = target.item
        etag = target.etag
        amount = target.amount
        self.action = Action(action)
        self.family = family?.rawValue
        needsApp = target.needsApp
    }

    /// The row's item as the button showed it, offering only the tapped action.
    public var target: WidgetRowAction {
        WidgetRowAction(
            ItemAddress(destination: destination, entitySet: entitySet, item: item), etag: etag, amount: amount, actions: [action.itemAction],
            needsApp: needsApp)
    }

    /// Writes the action request and, in the app's process, executes it; for an item that needs
    /// the user (``needsApp``, or answered so), brings the app forward where the system allows it
    /// (iOS 26).
    ///
    /// - Throws: ``WidgetActionError``: ``WidgetActionError/notArmed`` before the host enabled
    ///   extension access, ``WidgetActionError/unavailable(reason:)`` while the secrets cannot be
    ///   read or before ``install(container:credentials:executor:logger:)``.
    public func perform() async throws -> some IntentResult {
        guard let installed = Self.installed.withLock({ $0 }) else {
            throw WidgetActionError.unavailable(reason: "ItemActionIntent.install was not called when the process started")
        }
        let dispatched = try await installed.dispatch.dispatch(action.itemAction, on: target, surface: .widget, family: family)
        if needsApp || dispatched.outcome == .needsApp {
            await continueInApp(logger: installed.logger, request: dispatched.request)
        }
        return .result()
    }

    // MARK: - Foreground

    #if canImport(AppIntents, _version: 250)
    /// Background first; the foreground when an item needs the app (iOS 26).
    @available(iOS 26.0, *)
    public static var supportedModes: IntentModes { [.background, .foreground(.dynamic)] }
    #endif

    /// Opens the app for the request just written, where the system allows it; otherwise the
    /// request waits and the host says "Open the app" (see the type's discussion).
    private func continueInApp(logger: Logger, request: ActionRequest) async {
        #if canImport(AppIntents, _version: 250)
        guard #available(iOS 26.0, *), systemContext.currentMode.canContinueInForeground else { return }
        do {
            // The user just tapped the button: no second question before the app opens.
            try await continueInForeground(nil, alwaysConfirm: false)
        } catch {
            logger.notice("the app could not be opened for a step-up action; it waits", metadata: ["request": "\(request)", "error": "\(error)"])
        }
        #endif
    }

    // MARK: - Installation

    private struct Installed: Sendable {
        let dispatch: WidgetActionDispatch
        let logger: Logger
    }

    private static let installed = Locked<Installed?>(nil)

    /// Writes requests into `container`, sealed with `credentials`' key, from now on, and
    /// executes them with `executor` where one is given; a second call replaces the first. Call
    /// it when the process starts: in the widget extension without an executor, and in the app
    /// with TandemHost's `HostActionExecutor`, since the system runs the intent there (see the
    /// type's discussion).
    ///
    /// - Parameters:
    ///   - container: The App Group container the host reads requests from.
    ///   - credentials: The source of the auxiliary share and the shared sealing key.
    ///   - executor: Executes a request at once; `nil` (the widget extension) leaves it for the host.
    ///   - logger: Receives a line when the app cannot be opened; never a secret.
    public static func install(
        container: SharedContainer, credentials: any WidgetCredentialSource, executor: (any ItemActionExecutor)? = nil,
        logger: Logger = Logger(label: "tandem.widgets")
    ) {
        let submitter = WidgetActionSubmitter(container: container, credentials: credentials)
        let value = Installed(dispatch: WidgetActionDispatch(submitter: submitter, executor: executor), logger: logger)
        installed.withLock { $0 = value }
    }

    /// Writes requests into the container of `provider`, with its credentials and clock (the
    /// widget extension: the requests wait for the host).
    public static func install(from provider: DataWidgetProvider) {
        let submitter = WidgetActionSubmitter(container: provider.container, credentials: provider.credentials, clock: provider.clock)
        let value = Installed(dispatch: WidgetActionDispatch(submitter: submitter), logger: provider.logger)
        installed.withLock { $0 = value }
    }

    // MARK: - Action

    /// ``TandemProtocol/ItemAction`` as an App Intents value.
    public enum Action: String, AppEnum {
        /// Approve the item.
        case approve
        /// Reject the item.
        case reject

        /// The action `action`.
        public init(_ action: ItemAction) {
            switch action {
            case .approve: self = .approve
            case .reject: self = .reject
            }
        }

        /// The protocol's action.
        public var itemAction: ItemAction {
            switch self {
            case .approve: .approve
            case .reject: .reject
            }
        }

        /// "Action".
        public static var typeDisplayRepresentation: TypeDisplayRepresentation { "Action" }
        /// "Approve", "Reject".
        public static var caseDisplayRepresentations: [Action: DisplayRepresentation] {
            [.approve: "Approve", .reject: "Reject"]
        }
    }
}

/// Makes the system run a widget's tap in the app's process, in the background (iOS 17 and 18;
/// iOS 26 reads ``ItemActionIntent/supportedModes``, which Apple documents as the same). The
/// protocol is unavailable in app extensions, and so is this conformance: the widget extension's
/// copy of the intent, if the system runs one, writes the request for the host.
@available(iOS 17.0, *)
@available(iOSApplicationExtension, unavailable)
extension ItemActionIntent: ForegroundContinuableIntent {}
#endif
