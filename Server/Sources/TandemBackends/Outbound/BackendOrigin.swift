import Foundation

/// A URL's scheme, host and port: what two URLs must share for a redirect to be followed, and
/// all of a URL that logs and errors show.
struct BackendOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lowercased.
    let scheme: String
    /// The host, lowercased, without IPv6 brackets.
    let host: String
    /// The port, explicit or the scheme's default; `nil` for a scheme without a known default.
    let port: Int?

    /// Reads the origin of `url`; `nil` when it has no scheme or no host.
    init?(url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = Self.connectionHost(of: url) else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        port = url.port ?? Self.defaultPort(for: scheme)
    }

    /// The host as async-http-client reads it from `url`, brackets removed: the key its
    /// `dnsOverride` is looked up by.
    static func connectionHost(of url: URL) -> String? {
        guard var host = url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        return host.isEmpty ? nil : host
    }

    /// `https://host`, with the port only when it is not the scheme's default.
    var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        guard let port, port != Self.defaultPort(for: scheme) else { return "\(scheme)://\(shownHost)" }
        return "\(scheme)://\(shownHost):\(port)"
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
