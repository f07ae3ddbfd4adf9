#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The servers an app was built for. A configuration from a link or from a server naming any
/// other server is refused with ``AuthError/serverNotAllowed(_:)``.
///
/// Servers are compared as normalized URLs (``normalized(_:)``): scheme and host in lower case,
/// no default port, no trailing slash.
///
/// ```swift
/// let allowlist = try ServerAllowlist([URL(string: "https://tandem.example.com")!])
/// let configuration = try LinkConfigurationProvider(url: openedURL, allowedServers: allowlist).configuration()
/// ```
public struct ServerAllowlist: Sendable, Equatable {
    /// The allowed servers, normalized.
    public let servers: [URL]

    /// An allowlist of `servers`.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when one is not a usable server URL
    ///   (see ``normalized(_:)``).
    public init(_ servers: [URL]) throws(AuthError) {
        var normalized: [URL] = []
        for server in servers { normalized.append(try Self.normalized(server)) }
        self.servers = normalized
    }

    /// Whether `server` is one of ``servers``.
    public func permits(_ server: URL) -> Bool {
        guard let normalized = try? Self.normalized(server) else { return false }
        return servers.contains(normalized)
    }

    /// Refuses a server that is not one of ``servers``.
    ///
    /// - Throws: ``AuthError/serverNotAllowed(_:)``.
    public func check(_ server: URL) throws(AuthError) {
        guard permits(server) else {
            throw .serverNotAllowed("\(server.absoluteString) is not one of the servers this app was built for")
        }
    }

    /// `url` as a server URL is compared: lower-case scheme and host, no default port, no
    /// trailing slash.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` unless `url` is `https` (or `http` to a
    ///   loopback host: 127.0.0.0/8, `::1`, `localhost`) with a plain host name or address, and
    ///   has no user info, query or fragment.
    public static func normalized(_ url: URL) throws(AuthError) -> URL {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            var host = components.percentEncodedHost?.lowercased(), !host.isEmpty
        else { throw .invalidConfiguration("server_url must be an http or https URL with a host") }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw .invalidConfiguration("server_url must not carry user info (user@host)")
        }
        guard components.percentEncodedQuery == nil, components.percentEncodedFragment == nil else {
            throw .invalidConfiguration("server_url must not carry a query or fragment")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }) else {
            throw .invalidConfiguration("server_url's host must be a plain name or address")
        }
        guard scheme == "https" || isLoopback(host: host) else {
            throw .invalidConfiguration("server_url must use https (http only to a loopback address)")
        }
        var text = "\(scheme)://" + (host.contains(":") ? "[\(host)]" : host)
        if let port = components.port, port != (scheme == "https" ? 443 : 80) { text += ":\(port)" }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        text += path
        guard let normalized = URL(string: text) else { throw .invalidConfiguration("server_url cannot be normalized") }
        return normalized
    }

    /// Refuses a document (app configuration or RFC 8414 metadata) whose `issuer` is not the
    /// server asked, compared as ``normalized(_:)`` URLs.
    ///
    /// - Throws: ``AuthError/issuerMismatch(expected:actual:)``.
    public static func checkIssuer(_ issuer: URL, expected: URL) throws(AuthError) {
        guard let actual = try? ServerAllowlist.normalized(issuer), actual == (try? ServerAllowlist.normalized(expected)) else {
            throw .issuerMismatch(expected: expected.absoluteString, actual: issuer.absoluteString)
        }
    }

    /// Whether `host` (without brackets) is `localhost`, `::1` or in 127.0.0.0/8.
    static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}
