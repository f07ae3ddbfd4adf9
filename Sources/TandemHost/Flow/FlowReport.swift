/// What a finished flow did: each step's result and duration, in order.
public struct FlowReport: Sendable {
    /// One step's part.
    public struct StepRecord: Sendable {
        /// The step's name.
        public var step: String
        /// What it did.
        public var result: StepResult
        /// How long it took.
        public var duration: Duration
    }

    /// The phase that ran.
    public var phase: FlowPhase
    /// Every step, in the order they ran.
    public var steps: [StepRecord]
    /// The whole flow's duration.
    public var duration: Duration

    /// The result of the step named `name`, if it ran.
    public func result(of name: String) -> StepResult? {
        steps.first { $0.step == name }?.result
    }
}
