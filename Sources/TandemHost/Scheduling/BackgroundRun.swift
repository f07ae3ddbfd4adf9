/// How one background run ended.
public enum BackgroundRun: Sendable, Equatable {
    /// The work finished in its time, successfully or not.
    case completed(success: Bool)
    /// The time ran out: the work was cancelled and stopped at a safe point.
    case expired
}
