import TandemAuth

/// The ``WidgetNetwork`` of a binary that links no network stack: a brokered widget sends no
/// request, so `tandem-widget` does without one (on Linux that keeps libcurl out of the process).
public enum NoWidgetNetwork: WidgetNetwork {
    /// Always fails: this binary cannot fetch.
    ///
    /// - Throws: ``CommandFailure``, naming the command that can.
    public static func client(_ configuration: ClientConfiguration, role: String) throws -> AppClient {
        throw CommandFailure("this binary links no network stack (a brokered widget needs none): use `tandem widget timeline --mode direct`")
    }
}
