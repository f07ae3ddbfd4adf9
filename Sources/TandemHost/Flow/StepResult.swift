/// What a step did in one phase.
public enum StepResult: Sendable, Equatable, CustomStringConvertible {
    /// The step ran; the summary says what it did in a few words ("vault created", "2 requests
    /// fulfilled"), never a secret.
    case completed(String)
    /// The step has nothing to do in this phase (or nothing to do this time), and says why.
    case skipped(String)

    /// The summary or the reason.
    public var description: String {
        switch self {
        case .completed(let summary): summary
        case .skipped(let reason): "skipped: \(reason)"
        }
    }
}
