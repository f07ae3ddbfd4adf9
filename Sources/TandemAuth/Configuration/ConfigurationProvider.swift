/// A source of the ``ClientConfiguration``: compiled-in JSON, an onboarding link, the server.
///
/// Onboarding asks its provider once and keeps the result.
public protocol ConfigurationProvider: Sendable {
    /// The configuration.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` for malformed input, or the errors of
    ///   fetching it.
    func configuration() async throws(AuthError) -> ClientConfiguration
}

/// A configuration given as JSON text, such as a file bundled with the app.
public struct JSONConfigurationProvider: ConfigurationProvider {
    /// The JSON form of a ``ClientConfiguration``.
    public let json: String

    /// A provider for `json`.
    public init(json: String) { self.json = json }

    /// The configuration decoded from the JSON.
    public func configuration() throws(AuthError) -> ClientConfiguration {
        try ClientConfiguration(json: json)
    }
}
