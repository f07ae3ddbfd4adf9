import Foundation

/// An ordered list of ``Step``s that runs as onboarding, restoring or the background flow.
///
/// A flow runs its steps one after the other. A step that throws stops the flow with
/// ``FlowError/stepFailed(step:phase:underlying:)`` naming it; a cancelled task stops it with
/// ``FlowError/cancelled(step:phase:)`` (checked between steps, and inside steps at their safe
/// points). Whenever a flow stops early, and after every background run, it locks the vault, so
/// the keys are never left in memory by a flow that did not finish. The observer hears each
/// step start and finish with its duration (on the context's clock), in order.
///
/// ```swift
/// let flow = Flow([
///     ConfigurationStep(source: .server(url, clientID: "com.example.app", allowedServers: try ServerAllowlist([url]))),
///     VaultStep(), AuthenticationStep(), ExtensionAccessStep(), SettingsStep(),
/// ])
/// let report = try await flow.run(.onboard, in: context) { event in print(event) }
/// ```
public struct Flow: Sendable {
    /// The steps, in the order they run.
    public let steps: [any Step]

    /// A flow of `steps`, run in this order.
    public init(_ steps: [any Step]) {
        self.steps = steps
    }

    /// Runs every step's part in `phase`.
    ///
    /// - Parameters:
    ///   - phase: Onboarding, restoring or the background flow.
    ///   - context: What the steps share.
    ///   - keepVaultUnlocked: Leave the vault open after a successful onboarding or restore (the
    ///     app is in the foreground and will use it). Ignored for the background flow, which
    ///     always locks.
    ///   - observer: Told of each step's start and end, in order.
    /// - Returns: What each step did, with durations.
    /// - Throws: ``FlowError``: the failed step's name and its error, or the cancellation.
    @discardableResult
    public func run(
        _ phase: FlowPhase, in context: FlowContext, keepVaultUnlocked: Bool = false,
        observer: @Sendable (FlowEvent) -> Void = { _ in }
    ) async throws(FlowError) -> FlowReport {
        let clock = context.clock
        let start = clock.now
        observer(.started(phase: phase, steps: steps.map(\.name)))
        var records: [FlowReport.StepRecord] = []
        for step in steps {
            if Task.isCancelled {
                context.vault.lock()
                throw .cancelled(step: nil, phase: phase)
            }
            observer(.stepStarted(step: step.name, phase: phase))
            let stepStart = clock.now
            do {
                let result = try await step.run(phase, in: context)
                let duration = Self.duration(from: stepStart, to: clock.now)
                records.append(FlowReport.StepRecord(step: step.name, result: result, duration: duration))
                observer(.stepFinished(step: step.name, phase: phase, result: result, duration: duration))
            } catch {
                context.vault.lock()
                let failure: FlowError = error is CancellationError || Task.isCancelled
                    ? .cancelled(step: step.name, phase: phase)
                    : .stepFailed(step: step.name, phase: phase, underlying: error)
                observer(.stepFailed(step: step.name, phase: phase, error: failure, duration: Self.duration(from: stepStart, to: clock.now)))
                throw failure
            }
        }
        if phase == .background || !keepVaultUnlocked {
            context.vault.lock()
        }
        let duration = Self.duration(from: start, to: clock.now)
        observer(.finished(phase: phase, duration: duration))
        return FlowReport(phase: phase, steps: records, duration: duration)
    }

    /// The time from `start` to `end`; never negative (the system's wall clock may be set back).
    private static func duration(from start: Date, to end: Date) -> Duration {
        .seconds(max(0, end.timeIntervalSince(start)))
    }
}
