/// Why the host's ``Analytics`` could not record an event. Routing and the app go on either way:
/// analytics never stops what the user is doing.
public enum AnalyticsError: Error, Hashable, Sendable {
    /// The action is not a name the server accepts (1 to 100 of `A-Z a-z 0-9 . _ -`): fix the
    /// call site; such an event would make the server refuse its whole batch.
    case invalidAction(String)
    /// The events directory cannot be created, written or listed (disk full, permissions).
    case storage(String)
}

extension AnalyticsError: CustomStringConvertible {
    /// What went wrong, in words meant for logs.
    public var description: String {
        switch self {
        case .invalidAction(let action): "not a valid analytics action: \(action.prefix(100).debugDescription)"
        case .storage(let reason): "analytics storage failed: \(reason)"
        }
    }
}
