#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// A configuration carried by a link that opened the app, such as
/// `myapp://onboard?config=<base64url JSON>` or `https://app.example.com/onboard?config=…`.
///
/// Any web page can open such a link, so its server must be one the app was built for.
///
/// ```swift
/// let allowlist = try ServerAllowlist([URL(string: "https://tandem.example.com")!])
/// let configuration = try LinkConfigurationProvider(url: openedURL, allowedServers: allowlist).configuration()
/// ```
public struct LinkConfigurationProvider: ConfigurationProvider {
    /// The query parameter holding the configuration.
    public static let parameterName = "config"
    /// The link.
    public let url: URL
    /// The servers the app was built for.
    public let allowedServers: ServerAllowlist

    /// A provider for the link `url`.
    ///
    /// - Parameters:
    ///   - url: The link that opened the app.
    ///   - allowedServers: The servers the app was built for (never taken from a link).
    public init(url: URL, allowedServers: ServerAllowlist) {
        self.url = url
        self.allowedServers = allowedServers
    }

    /// The configuration decoded from the link's `config=` parameter.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when the parameter is missing, repeated,
    ///   not base64url, or not a valid configuration; ``AuthError/serverNotAllowed(_:)`` when it
    ///   names a server outside ``allowedServers``.
    public func configuration() throws(AuthError) -> ClientConfiguration {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else {
            throw .invalidConfiguration("the link has no \(Self.parameterName) parameter")
        }
        let values = items.filter { $0.name == Self.parameterName }
        guard values.count == 1, let encoded = values[0].value, !encoded.isEmpty else {
            throw .invalidConfiguration(values.isEmpty ? "the link has no \(Self.parameterName) parameter" : "the link's \(Self.parameterName) parameter is repeated or empty")
        }
        guard let json = Base64URL.decode(encoded) else {
            throw .invalidConfiguration("the link's \(Self.parameterName) parameter is not base64url")
        }
        let configuration = try ClientConfiguration(jsonData: json)
        try allowedServers.check(configuration.serverURL)
        return configuration
    }

    /// A link with `configuration` in its `config=` parameter, such as a QR code shows.
    ///
    /// - Parameters:
    ///   - configuration: The configuration to carry.
    ///   - base: The link without the parameter, such as `myapp://onboard`.
    public static func link(for configuration: ClientConfiguration, base: URL) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: parameterName, value: Base64URL.encode(configuration.jsonData())))
        components.queryItems = items
        return components.url ?? base
    }
}
