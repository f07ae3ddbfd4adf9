import Foundation
import TandemAuth
import TandemProtocol
import TandemSharedContainer

/// The widgets' actions, executed by the host with its own grant (see ``ActionExecution``):
/// in the background flow without the user (amounts above the app's step-up threshold are left
/// for the app, and the widget says "open the app"), and in the restoring flow once the user
/// unlocked the app, where a step-up key (when the app gives one) signs the proofs the server
/// asks for above the threshold.
///
/// Put it before ``ExtensionCommunicationStep``: an action that changed an item sets
/// ``FlowContext/contentChangedAt``, so the configured widgets' rows are fetched again in the
/// same run and show the item's new state. Whenever it wrote a result it asks the widgets to
/// reload, so the result shows at once, even when the rows cannot be fetched again now.
public struct ActionExecutionStep: Step {
    public let name = "widget actions"
    private let reloader: (any WidgetReloader)?
    private let stepUpKey: @Sendable (FlowContext) async throws -> (any DPoPSigner)?
    private let analytics: Analytics?
    private let onExecution: @Sendable ([ActionExecutionOutcome]) -> Void

    /// A widget-actions step.
    ///
    /// - Parameters:
    ///   - reloader: Asked to reload the widgets after a run that wrote results.
    ///   - stepUpKey: In the restoring flow (the user present), the key that signs step-up proofs;
    ///     by default none, so high-value actions wait for an app that supplies one.
    ///   - analytics: Where one event per outcome is tracked (``analyticsAction(for:)``: outcome,
    ///     surface, family and action, never the item), or `nil`.
    ///   - onExecution: Told each run's outcomes.
    public init(
        reloader: (any WidgetReloader)? = nil, stepUpKey: @escaping @Sendable (FlowContext) async throws -> (any DPoPSigner)? = { _ in nil },
        analytics: Analytics? = nil, onExecution: @escaping @Sendable ([ActionExecutionOutcome]) -> Void = { _ in }
    ) {
        self.reloader = reloader
        self.stepUpKey = stepUpKey
        self.analytics = analytics
        self.onExecution = onExecution
    }

    /// The analytics event of an action's outcome: `widget.action.done`, `widget.action.conflict`,
    /// `widget.action.needs-app`, `widget.action.refused`, `widget.action.expired`.
    ///
    /// The server's summaries count events by name and by the grouping properties
    /// (`EventBatchRules/groupingProperties`): `kind` carries the surface (`widget`, `control`,
    /// `shortcut`, `app`), `family` the widget family. `action` and, for a refusal, `reason` ride
    /// along; never the item.
    public static func analyticsAction(for outcome: ActionOutcome) -> String {
        ActionEventNames.name(outcome: outcome.name)
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        try await execute(in: context, inSession: false, stepUpKey: nil)
    }

    /// In the user's session: executes every waiting request, high-value ones with a proof by
    /// the step-up key. The key is normally enrolled with the sign-in (``AuthenticationStep``'s
    /// `stepUpKey`); only right after a sign-in that enrolled none does this step enrol it, which
    /// the server allows for a few minutes. When that cannot be done now (the server is out of
    /// reach), high-value requests wait as in the background.
    public func restore(in context: FlowContext) async throws -> StepResult {
        var key: (any DPoPSigner)?
        do {
            key = try await enrolledStepUpKey(in: context)
        } catch {
            context.logger.warning("the step-up key is not enrolled; high-value actions wait", metadata: ["error": "\(error)"])
        }
        return try await execute(in: context, inSession: true, stepUpKey: key)
    }

    /// The app's step-up key, or `nil` when the app gives none or the app uses an API key;
    /// enrolled here only when the user signed in during this run without one. Signing an
    /// enrolment asks for Face ID on a phone, so nothing is signed on an ordinary opening.
    private func enrolledStepUpKey(in context: FlowContext) async throws -> (any DPoPSigner)? {
        guard context.configuration?.securityMode == .oauth, let key = try await stepUpKey(context) else { return nil }
        guard context.signedInThisRun, !context.stepUpKeyEnrolledWithSignIn else { return key }
        let client = try context.client()
        guard case .tokens(let provider) = try RequestCredentials.host(client: client, vault: context.vault, publishingEndIn: context.container)
        else { return nil }
        try await StepUpKeyRegistrar.register(key, with: client, tokens: provider)
        return key
    }

    /// Executes the waiting requests: with the vault the user unlocked (`inSession`) or opened
    /// by each request's share; `stepUpKey` is given only where the user is present.
    private func execute(in context: FlowContext, inSession: Bool, stepUpKey: (any DPoPSigner)?) async throws -> StepResult {
        guard let share = try context.auxiliaryShare(), let sealingKey = try SharedSealingKey.load(from: context.sharedSecrets) else {
            return .skipped("extension access is not enabled")
        }
        guard context.container.actions.hasWaiting() else {
            _ = context.container.actions.results(sealingKey: sealingKey, now: context.clock.now, removingOld: true)
            return .skipped("no action waiting")
        }
        let execution = ActionExecution(
            vault: context.vault, container: context.container, sealingKey: sealingKey, client: try context.client(),
            policy: context.configuration?.actionPolicy ?? .default, stepUpKey: stepUpKey,
            logger: context.logger, clock: context.clock)
        let outcomes = try await execution.execute(currentShare: inSession ? share : nil)
        onExecution(outcomes)
        if outcomes.contains(where: \.changedData) {
            context.contentChangedAt = context.clock.now
        }
        // The results show at once, whether or not the rows can be fetched again in this run.
        if outcomes.contains(where: { $0.outcome != nil }), let reloader {
            await reloader.reloadAllTimelines()
        }
        await track(outcomes)
        let done = outcomes.filter { if case .done = $0.outcome { true } else { false } }.count
        let waiting = outcomes.filter { $0.outcome == nil }.count
        return .completed(
            "\(done) of \(outcomes.count) action\(outcomes.count == 1 ? "" : "s") done" + (waiting > 0 ? ", \(waiting) waiting for the server" : ""))
    }

    private func track(_ outcomes: [ActionExecutionOutcome]) async {
        guard let analytics else { return }
        for outcome in outcomes {
            guard let result = outcome.outcome else { continue }
            var data = ["kind": outcome.draft?.surface.rawValue ?? "unknown"]
            if let action = outcome.draft?.action { data["action"] = action.rawValue }
            if let family = outcome.draft?.family { data["family"] = family }
            if case .refused(let reason) = result { data["reason"] = reason.rawValue }
            _ = try? await analytics.track(action: Self.analyticsAction(for: result), data: data)
        }
    }
}
