import Foundation
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgets

/// The host app's executor of a widget's tap (``TandemWidgets/ItemActionExecutor``): when the
/// system runs a widget button's intent in the app's process, the intent hands it the request it
/// just wrote, and it executes that request at once through ``ActionExecution`` with the host's
/// grant and DPoP key, writes the result and reloads the widgets.
///
/// The app is usually not in front of the user then (the system launched it in the background
/// for the intent), so, as in the background flow:
/// - a locked vault is opened with the request's share (the extensions' key slot) and locked
///   again; a vault the user has unlocked stays unlocked, and the request's share must be the
///   extensions' current one;
/// - no step-up key signs: an amount above the app's threshold is answered
///   ``TandemSharedContainer/ActionOutcome/needsApp`` and the request waits for the app in the
///   foreground (the intent then asks the system to bring the app forward);
/// - other waiting requests stay for the host's next run.
///
/// Give it the ``HostWorkQueue`` the app's background flows run on: a background flow locking
/// the vault in the middle of an execution would leave the request waiting.
///
/// ```swift
/// ItemActionIntent.install(
///     container: services.container, credentials: SharedSecretCredentials(storage: services.sharedSecrets),
///     executor: HostActionExecutor(
///         context: { services.context(presenters: FlowPresenters()) }, reloader: WidgetCenterReloader(), queue: backgroundWork))
/// ```
public struct HostActionExecutor: ItemActionExecutor {
    private let context: @Sendable () async throws -> FlowContext
    private let reloader: (any WidgetReloader)?
    private let queue: HostWorkQueue?

    /// An executor over the flow context `context` makes (the app's storage, configuration and
    /// transport, no presenters).
    ///
    /// - Parameters:
    ///   - context: Makes the context of one execution.
    ///   - reloader: Asked to reload the widgets after a result.
    ///   - queue: The queue the app's background flows run on; each execution waits its turn there.
    public init(
        context: @escaping @Sendable () async throws -> FlowContext, reloader: (any WidgetReloader)? = nil, queue: HostWorkQueue? = nil
    ) {
        self.context = context
        self.reloader = reloader
        self.queue = queue
    }

    public func execute(_ request: ActionRequest) async -> ActionOutcome? {
        guard let queue else { return await executeNow(request) }
        return await queue.run { await executeNow(request) }
    }

    private func executeNow(_ request: ActionRequest) async -> ActionOutcome? {
        let context: FlowContext
        do {
            context = try await self.context()
        } catch {
            return nil
        }
        let execution: ActionExecution
        let currentShare: AuxiliaryShare?
        do {
            guard let share = try context.auxiliaryShare(), let sealingKey = try SharedSealingKey.load(from: context.sharedSecrets) else {
                context.logger.notice("a widget's action waits: extension access is not enabled", metadata: ["request": "\(request)"])
                return nil
            }
            execution = ActionExecution(
                vault: context.vault, container: context.container, sealingKey: sealingKey, client: try context.client(),
                policy: context.configuration?.actionPolicy ?? .default, stepUpKey: nil, logger: context.logger, clock: context.clock)
            // In the user's session the vault stays as the user left it: compared with the
            // extensions' current share instead of opened (and locked) with the request's.
            currentShare = context.vault.isUnlocked ? share : nil
        } catch {
            context.logger.notice("a widget's action waits for the host's next run", metadata: ["request": "\(request)", "error": "\(error)"])
            return nil
        }
        let outcome = await execution.execute(request, currentShare: currentShare).outcome
        if outcome != nil, let reloader {
            await reloader.reloadAllTimelines()
        }
        return outcome
    }
}
