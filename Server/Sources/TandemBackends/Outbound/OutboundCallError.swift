/// Why a backend call was refused or failed. Descriptions name at most a method, an origin, a
/// host, an address or a limit: never a path, a query, a header value or a body.
public enum OutboundCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with a request URL.
    public enum URLProblem: String, Sendable, Hashable {
        /// The URL has no scheme.
        case notAbsolute
        /// The scheme is neither `https` nor `http`.
        case unsupportedScheme
        /// The URL carries a user name or password.
        case userInfo
        /// The URL has no host.
        case missingHost
        /// The host is neither an IP address nor a plain DNS name (letters, digits, `-`, `_`, `.`).
        case unsupportedHost
        /// The port is outside 1...65535.
        case invalidPort
    }

    /// Which limit ran out.
    public enum TimeoutPhase: String, Sendable, Hashable {
        /// ``OutboundPolicy/connectTimeout``: establishing the connection.
        case connect
        /// ``OutboundPolicy/requestTimeout``: the call as a whole.
        case request
    }

    /// The client's policy cannot be used; the reason names the setting.
    case invalidPolicy(reason: String)
    /// The request cannot be sent as given; the reason names the part, never its value.
    case invalidRequest(reason: String)
    /// The request URL breaks a URL rule.
    case invalidURL(URLProblem)
    /// Plain `http` to a host that is not loopback, or to loopback without ``OutboundPolicy/allowsLoopback``.
    case plainHTTPRefused(origin: String)
    /// The host has no address.
    case resolutionFailed(host: String)
    /// The host, or one of its addresses, is in a refused range.
    case addressRefused(host: String, address: IPAddress, kind: RefusedAddressKind)
    /// A redirect points to another scheme, host or port; only that origin is named.
    case crossOriginRedirect(to: String)
    /// A redirect's `Location` cannot be read as a URL.
    case invalidRedirect(origin: String)
    /// More redirects than ``OutboundPolicy/maximumRedirects``.
    case tooManyRedirects(limit: Int)
    /// The body is larger than ``OutboundPolicy/maximumResponseBytes``.
    case responseTooLarge(limit: Int)
    /// A time limit ran out.
    case timedOut(TimeoutPhase)
    /// The destination's circuit is open: recent calls failed. Try again after `retryAfter`.
    case circuitOpen(retryAfter: Duration)
    /// The connection failed or broke before a whole response arrived.
    case connectionFailed(origin: String, reason: String)
    /// The TLS handshake failed, for example because the certificate is not trusted or does not
    /// name the host. `detail` is the TLS library's own message.
    case tlsFailed(origin: String, detail: String)
    /// The calling task was cancelled.
    case cancelled
    /// The client was shut down.
    case shutDown

    /// A sentence for logs and operators.
    public var description: String {
        switch self {
        case .invalidPolicy(let reason):
            "The outbound policy cannot be used: \(reason)."
        case .invalidRequest(let reason):
            "The backend request cannot be sent: \(reason)."
        case .invalidURL(let problem):
            "The backend URL is refused: \(problem.sentence)."
        case .plainHTTPRefused(let origin):
            "Plain HTTP to \(origin) is refused: backends are called over HTTPS (HTTP only to loopback in development)."
        case .resolutionFailed(let host):
            "The backend host \(host) has no address."
        case .addressRefused(let host, let address, let kind):
            "The backend host \(host) resolves to \(address), \(kind), which is refused."
        case .crossOriginRedirect(let origin):
            "The backend redirected to another origin, \(origin), which is not followed."
        case .invalidRedirect(let origin):
            "The backend at \(origin) redirected to a location that is not a URL."
        case .tooManyRedirects(let limit):
            "The backend redirected more than \(limit) times."
        case .responseTooLarge(let limit):
            "The backend's response is larger than \(limit) bytes."
        case .timedOut(.connect):
            "Connecting to the backend timed out."
        case .timedOut(.request):
            "The backend call timed out."
        case .circuitOpen(let retryAfter):
            "The backend is failing; calls are paused for \(Self.seconds(retryAfter)) s."
        case .connectionFailed(let origin, let reason):
            "The connection to \(origin) failed: \(reason)."
        case .tlsFailed(let origin, let detail):
            "The TLS handshake with \(origin) failed: \(detail)."
        case .cancelled:
            "The backend call was cancelled."
        case .shutDown:
            "The outbound client is shut down."
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let tenths = (duration.seconds * 10).rounded(.up) / 10
        return String(tenths)
    }
}

extension OutboundCallError.URLProblem {
    fileprivate var sentence: String {
        switch self {
        case .notAbsolute: "it is not absolute"
        case .unsupportedScheme: "its scheme is neither https nor http"
        case .userInfo: "it carries a user name or password"
        case .missingHost: "it has no host"
        case .unsupportedHost: "its host is neither an IP address nor a plain DNS name"
        case .invalidPort: "its port is outside 1...65535"
        }
    }
}
