import TandemAuth

/// How a ``DataWidgetProvider`` gets fresh rows; the shared container's article "Brokered vs direct mode"
/// compares the two.
public enum DataWidgetMode: Sendable {
    /// The widget writes a data request; the host's background run fetches and writes the
    /// snapshot, then reloads the widget.
    case brokered
    /// The widget fetches the page itself with the extensions' own grant (refreshed
    /// single-flight across processes by an `ExtensionSession`), and writes the snapshot.
    ///
    /// - Parameter client: The app's clients, built for the widget's role.
    case direct(AppClient)
}
