/// Asks the system to reload widgets' timelines after the host changed what they show:
/// `WidgetCenter` on a phone (``WidgetCenterReloader``); on Linux the tests' and the CLI's
/// `TimelineSimulator` (TandemWidgetSimulator), or the files `tandem host run` writes.
public protocol WidgetReloader: Sendable {
    /// Reloads every widget of `kind`.
    func reloadTimelines(ofKind kind: String) async
    /// Reloads every widget of the app.
    func reloadAllTimelines() async
}
