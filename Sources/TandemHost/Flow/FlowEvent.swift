/// What a running flow reports to its observer, in order: `started`, then per step
/// `stepStarted` and `stepFinished` (or `stepFailed`, which ends the flow), then `finished`.
public enum FlowEvent: Sendable, CustomStringConvertible {
    /// The flow began; `steps` are the names it will run, in order.
    case started(phase: FlowPhase, steps: [String])
    /// A step began.
    case stepStarted(step: String, phase: FlowPhase)
    /// A step ended with `result` after `duration`.
    case stepFinished(step: String, phase: FlowPhase, result: StepResult, duration: Duration)
    /// A step failed or was cancelled after `duration`; the flow stops here.
    case stepFailed(step: String, phase: FlowPhase, error: FlowError, duration: Duration)
    /// Every step ran; the flow took `duration`.
    case finished(phase: FlowPhase, duration: Duration)

    public var description: String {
        switch self {
        case .started(let phase, let steps): "\(phase): \(steps.joined(separator: " → "))"
        case .stepStarted(let step, let phase): "\(phase) \(step) …"
        case .stepFinished(let step, let phase, let result, let duration): "\(phase) \(step): \(result) (\(duration.formattedMilliseconds))"
        case .stepFailed(let step, let phase, let error, let duration): "\(phase) \(step) FAILED after \(duration.formattedMilliseconds): \(error)"
        case .finished(let phase, let duration): "\(phase) done in \(duration.formattedMilliseconds)"
        }
    }
}

extension Duration {
    /// "12 ms", for progress lines.
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
