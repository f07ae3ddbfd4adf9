import Foundation

/// A request URL that passed the URL rules: an absolute `https` URL without user info, with a
/// host that is an IP literal or a plain DNS name written without percent escapes. Plain
/// `http` passes only under a loopback-allowing policy and, for an IP literal, only to a
/// loopback address; a name's addresses are checked to be loopback once it is resolved.
struct BackendTarget: Sendable {
    /// The URL as given.
    let url: URL
    /// Its scheme, host and port.
    let origin: BackendOrigin
    /// The host exactly as async-http-client will read it from ``url``.
    let connectionHost: String
    /// The address, when the host is an IP literal.
    let literal: IPAddress?

    /// Checks `url` against the URL rules of `policy`. The URL is read back from its text first,
    /// as async-http-client reads it, so that both see the same host.
    init(url given: URL, policy: OutboundPolicy) throws(OutboundCallError) {
        guard let url = URL(string: given.absoluteString) else { throw .invalidURL(.notAbsolute) }
        guard let scheme = url.scheme?.lowercased() else { throw .invalidURL(.notAbsolute) }
        guard scheme == "https" || scheme == "http" else { throw .invalidURL(.unsupportedScheme) }
        guard url.user == nil, url.password == nil else { throw .invalidURL(.userInfo) }
        guard let host = BackendOrigin.connectionHost(of: url), let origin = BackendOrigin(url: url) else {
            throw .invalidURL(.missingHost)
        }
        if let port = url.port, !(1...65_535).contains(port) { throw .invalidURL(.invalidPort) }
        guard url.host(percentEncoded: true) == url.host(percentEncoded: false) else {
            throw .invalidURL(.unsupportedHost)
        }
        let literal = IPAddress(host)
        guard literal != nil || Self.isPlainHostName(host) else { throw .invalidURL(.unsupportedHost) }
        if scheme == "http" {
            let mayBeLoopback = literal.map(AddressRules.isLoopback) ?? true
            guard policy.allowsLoopback, mayBeLoopback else { throw .plainHTTPRefused(origin: origin.description) }
        }
        self.url = url
        self.origin = origin
        connectionHost = host
        self.literal = literal
    }

    /// Whether plain `http` is in use, which the rules allow only to loopback addresses.
    var isPlainHTTP: Bool { origin.scheme == "http" }

    private static func isPlainHostName(_ host: String) -> Bool {
        guard host.utf8.count <= 253, !host.hasPrefix("."), !host.contains("..") else { return false }
        return host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }
}
