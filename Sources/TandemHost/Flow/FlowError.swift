/// Why a flow stopped.
public enum FlowError: Error, CustomStringConvertible {
    /// A step failed; `underlying` is its own typed error (a `VaultError`, an `AuthError`, a
    /// ``StepFailure``, …).
    case stepFailed(step: String, phase: FlowPhase, underlying: any Error)
    /// The flow's task was cancelled, during `step` or between steps (`nil`).
    case cancelled(step: String?, phase: FlowPhase)

    /// The step that failed or was running when the flow was cancelled.
    public var step: String? {
        switch self {
        case .stepFailed(let step, _, _): step
        case .cancelled(let step, _): step
        }
    }

    public var description: String {
        switch self {
        case .stepFailed(let step, let phase, let underlying): "\(phase) flow: step \(step) failed: \(underlying)"
        case .cancelled(let step?, let phase): "\(phase) flow: cancelled during step \(step)"
        case .cancelled(nil, let phase): "\(phase) flow: cancelled between steps"
        }
    }
}
