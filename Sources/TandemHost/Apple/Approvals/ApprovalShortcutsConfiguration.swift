#if canImport(AppIntents, _version: 163) && os(iOS)
import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer

/// What the app gives its approval shortcuts (``ApprovalShortcuts``): where the approvals come
/// from, how to reach the user's session and step-up key, and how to show the approvals.
///
/// ```swift
/// ApprovalShortcuts.install(ApprovalShortcutsConfiguration(
///     approvals: { try await approvalsStore.pending().map { ApprovalEntity($0.action, title: $0.title) } },
///     session: { try await appModel.unlockedSession() },          // runs the restoring flow if locked
///     stepUpKey: { _, approval in
///         try SecureEnclaveStepUpKey.key(tag: "com.example.sales.step-up", reason: "Approve \(approval.title)")
///     },
///     showApprovals: { appModel.route = .approvals }))
/// ```
@available(iOS 17.0, *)
public struct ApprovalShortcutsConfiguration: Sendable {
    /// The approvals pending now, as the app lists them (fetched with its grant, or its cache).
    public var approvals: @Sendable () async throws -> [ApprovalEntity]
    /// The user's session: the app's flow context with the vault unlocked. Called in the
    /// foreground; when the vault is locked, it runs the restoring flow (passcode or Face ID).
    public var session: @Sendable () async throws -> FlowContext
    /// The key that signs the step-up proof of `approval`: a ``SecureEnclaveStepUpKey``, whose
    /// signature asks for Face ID or the passcode, registered for this sign-in.
    public var stepUpKey: @Sendable (FlowContext, ApprovalEntity) async throws -> any DPoPSigner
    /// Brings the app's approvals screen forward.
    public var showApprovals: @MainActor @Sendable () async -> Void

    /// A configuration of the four; see the properties.
    public init(
        approvals: @escaping @Sendable () async throws -> [ApprovalEntity], session: @escaping @Sendable () async throws -> FlowContext,
        stepUpKey: @escaping @Sendable (FlowContext, ApprovalEntity) async throws -> any DPoPSigner,
        showApprovals: @escaping @MainActor @Sendable () async -> Void
    ) {
        self.approvals = approvals
        self.session = session
        self.stepUpKey = stepUpKey
        self.showApprovals = showApprovals
    }

    /// Approves `approval` with the user present, through ``ActionExecution``, as the restoring
    /// flow executes a widget's request.
    ///
    /// The request is written without an amount: the action policy asks for a step-up whenever
    /// it cannot read one, so the approval is always signed by the step-up key, whose signature
    /// asks for Face ID or the passcode, whatever the item's amount. Only this request is
    /// executed: other requests waiting in the container (a widget's taps) wait for the flows'
    /// next run, which executes at most ``ActionExecution/maximumRequestsPerRun`` of them, oldest
    /// first. A request left unanswered (the prompt cancelled, the server out of reach) is withdrawn, so
    /// no later run without the user executes it.
    ///
    /// - Returns: The outcome written back for the widgets (done, conflict, refused, …).
    /// - Throws: ``ApprovalShortcutsError``.
    func approve(_ approval: ApprovalEntity) async throws(ApprovalShortcutsError) -> ActionOutcome {
        let context: FlowContext
        do {
            context = try await session()
        } catch {
            throw .noSession(reason: "\(error)")
        }
        let share: AuxiliaryShare?
        let sealingKey: SharedSealingKey?
        let client: AppClient
        do {
            share = try context.auxiliaryShare()
            sealingKey = try SharedSealingKey.load(from: context.sharedSecrets)
            client = try context.client()
        } catch {
            throw .noSession(reason: "\(error)")
        }
        guard let share, let sealingKey else { throw .notArmed }
        let key: any DPoPSigner
        do {
            key = try await stepUpKey(context, approval)
        } catch {
            throw .stepUpKeyUnavailable(reason: "\(error)")
        }
        let draft = ActionRequest.Draft(approval.address, action: .approve, etag: approval.etag, amount: nil, surface: .shortcut)
        let request: ActionRequest
        do {
            request = try context.container.actions.submit(draft, share: share, sealingKey: sealingKey, now: context.clock.now)
        } catch {
            throw .container(error)
        }
        let execution = ActionExecution(
            vault: context.vault, container: context.container, sealingKey: sealingKey, client: client,
            policy: context.configuration?.actionPolicy ?? .default, stepUpKey: key, logger: context.logger, clock: context.clock)
        // This request alone: the widgets' own wait for their run (ActionExecution's cap on a run
        // could otherwise leave this one behind older ones).
        guard let outcome = await execution.execute(request, currentShare: share).outcome else {
            context.container.actions.discard(id: request.id)
            throw .notConfirmed
        }
        return outcome
    }
}
#endif
