import TandemWidgets

/// Asks the system to reload widgets' timelines after the host changed what they show:
/// `WidgetCenter` on a phone (the platform issue's adapter), the ``TandemWidgets/TimelineSimulator``
/// on Linux.
public protocol WidgetReloader: Sendable {
    /// Reloads every widget of `kind`.
    func reloadTimelines(ofKind kind: String) async
    /// Reloads every widget of the app.
    func reloadAllTimelines() async
}

extension TimelineSimulator: WidgetReloader {}
