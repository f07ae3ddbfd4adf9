/// One stage of an app's flows, such as "configuration", "authentication" or "vault".
///
/// A step implements what it does in each ``FlowPhase``; a phase it has no part in keeps the
/// default, which skips. Steps share what they learn through the ``FlowContext`` (the
/// configuration step sets ``FlowContext/configuration``, the authentication step leaves the
/// tokens for the vault step to keep). A step honours cancellation at its safe points with
/// `try Task.checkCancellation()` and writes only through the vault's transactions and the
/// shared container's atomic records, so stopping it never leaves anything half-written.
///
/// ```swift
/// struct GreetingStep: Step {
///     let name = "greeting"
///     func onboard(in context: FlowContext) async throws -> StepResult {
///         .completed("said hello")
///     }
/// }
/// ```
public protocol Step: Sendable {
    /// The step's name in progress events and errors.
    var name: String { get }

    /// What the step does on the app's first start.
    func onboard(in context: FlowContext) async throws -> StepResult

    /// What the step does when the app starts again.
    func restore(in context: FlowContext) async throws -> StepResult

    /// What the step does with no user present.
    func background(in context: FlowContext) async throws -> StepResult
}

extension Step {
    public func onboard(in context: FlowContext) async throws -> StepResult { .skipped("not part of onboarding") }

    public func restore(in context: FlowContext) async throws -> StepResult { .skipped("not part of restoring") }

    public func background(in context: FlowContext) async throws -> StepResult { .skipped("not part of the background flow") }

    /// Runs the step's part in `phase`.
    func run(_ phase: FlowPhase, in context: FlowContext) async throws -> StepResult {
        switch phase {
        case .onboard: try await onboard(in: context)
        case .restore: try await restore(in: context)
        case .background: try await background(in: context)
        }
    }
}
