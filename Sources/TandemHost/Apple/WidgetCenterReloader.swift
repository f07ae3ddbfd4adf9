#if canImport(WidgetKit)
import WidgetKit

/// `WidgetCenter` behind the flows' ``WidgetReloader``: the background flow asks the system to
/// reload the widgets after it wrote new snapshots. Needs no entitlement; the system spaces
/// reloads by its own budget.
public struct WidgetCenterReloader: WidgetReloader {
    /// A reloader over `WidgetCenter.shared`.
    public init() {}

    public func reloadTimelines(ofKind kind: String) async {
        WidgetCenter.shared.reloadTimelines(ofKind: kind)
    }

    public func reloadAllTimelines() async {
        WidgetCenter.shared.reloadAllTimelines()
    }
}
#endif
