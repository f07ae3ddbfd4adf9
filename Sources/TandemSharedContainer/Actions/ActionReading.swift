/// One action request file as the host found it: a request it can execute, or a file that does
/// not open, which it refuses as tampered (the widget that wrote the id sees that).
public enum ActionReading: Sendable, Equatable {
    /// A request sealed by a holder of the key.
    case request(ActionRequest)
    /// A file named like a request that does not open or decode: `id` is its name.
    case unreadable(id: String, reason: SharedContainerError)
}
