#if canImport(WidgetKit) && os(iOS)
import TandemSharedContainer

/// Why ``WidgetCenterRegistry/sync()`` could not mirror the installed widgets. The registry keeps
/// what it held (or what was written before the failure); sync again later.
public enum WidgetCenterRegistryError: Error, Equatable, Sendable {
    /// `WidgetCenter` could not list the installed widgets; nothing was changed. `reason` is for logs.
    case widgetCenter(reason: String)
    /// The container's registry could not be listed or written.
    case registry(SharedContainerError)
}

extension WidgetCenterRegistryError: CustomStringConvertible {
    /// What went wrong, in words meant for logs; never a secret.
    public var description: String {
        switch self {
        case .widgetCenter(let reason): "WidgetCenter cannot list the installed widgets: \(reason)"
        case .registry(let error): "the widget registry cannot be updated: \(error)"
        }
    }
}
#endif
