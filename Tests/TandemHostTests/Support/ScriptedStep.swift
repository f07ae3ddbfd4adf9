import TandemHost

/// A step whose behaviour each test writes: it records its name when it runs, then does what
/// `action` says in the phases it takes part in (the others keep the protocol's default skip).
struct ScriptedStep: Step {
    let name: String
    var phases: Set<FlowPhase> = [.onboard, .restore, .background]
    let log: Recorder<String>
    var action: @Sendable (FlowContext) async throws -> StepResult = { _ in .completed("ok") }

    func onboard(in context: FlowContext) async throws -> StepResult {
        guard phases.contains(.onboard) else { return .skipped("not part of onboarding") }
        return try await perform(context)
    }

    func restore(in context: FlowContext) async throws -> StepResult {
        guard phases.contains(.restore) else { return .skipped("not part of restoring") }
        return try await perform(context)
    }

    func background(in context: FlowContext) async throws -> StepResult {
        guard phases.contains(.background) else { return .skipped("not part of the background flow") }
        return try await perform(context)
    }

    private func perform(_ context: FlowContext) async throws -> StepResult {
        log.append(name)
        return try await action(context)
    }
}

/// A step's own error, to check that a flow's failure carries it unchanged.
struct ScriptedFailure: Error, Equatable {
    let code: Int
}
