import TandemSharedContainer

/// Why a widget's tap could not be handed to the host. The widget shows "open the app" for
/// ``notArmed``, and its last content for the others.
public enum WidgetActionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host has not enabled extension access (no share or no sealing key): only the app can act.
    case notArmed
    /// The secrets cannot be read now (the device is locked); `reason` is for logs.
    case unavailable(reason: String)
    /// The row does not offer this action (it is decided, or not actionable).
    case notOffered
    /// The request could not be written.
    case container(SharedContainerError)

    /// What went wrong, in words meant for logs; never a secret.
    public var description: String {
        switch self {
        case .notArmed: "extension access is not enabled: open the app"
        case .unavailable(let reason): "the widget's secrets cannot be read now: \(reason)"
        case .notOffered: "the row does not offer this action"
        case .container(let error): "the action request could not be written: \(error)"
        }
    }
}
