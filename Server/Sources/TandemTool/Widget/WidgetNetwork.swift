import TandemAuth

/// How a widget command reaches the server when it fetches for itself (direct mode).
///
/// A command generic over it names no transport: `tandem` supplies URLSession, and
/// `tandem-widget`, built as a brokered widget extension would be, supplies ``NoWidgetNetwork``.
public protocol WidgetNetwork {
    /// The client a widget process of this binary fetches with.
    ///
    /// - Parameters:
    ///   - configuration: The app's client configuration, as the host saved it.
    ///   - role: The process's role (`widget`), sent in the app id header.
    /// - Throws: ``CommandFailure`` when this binary cannot reach the network.
    static func client(_ configuration: ClientConfiguration, role: String) throws -> AppClient
}
