import HTTPTypes
import Hummingbird
import NIOCore

/// Takes the client's address from `X-Forwarded-For` when the request comes from a trusted
/// reverse proxy, so that the per-source limits (sign-in failures, SSO redemption failures,
/// token requests) count each client, not the proxy that every user shares.
///
/// Only the configured proxies are believed: any client can send the header. Of its list of
/// addresses, the last one that is not itself a trusted proxy is the client (the proxies
/// append the peer they saw); a value that is not an IP address is ignored, and the request
/// keeps the proxy's address.
struct ForwardedSourceMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext

    /// The addresses of the reverse proxies in front of the server.
    let trustedProxies: Set<String>

    static let header = HTTPField.Name("X-Forwarded-For")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard trustedProxies.contains(context.peerKey), let forwarded = request.headers[values: Self.header].last else {
            return try await next(request, context)
        }
        var context = context
        context.forwardedSource = Self.client(in: forwarded, trusting: trustedProxies)
        return try await next(request, context)
    }

    /// The client's address in one `X-Forwarded-For` value, or `nil` when there is none.
    static func client(in forwarded: String, trusting proxies: Set<String>) -> String? {
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let client = hops.last(where: { !proxies.contains($0) }), isIPAddress(client) else { return nil }
        return client
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    static func isIPAddress(_ text: String) -> Bool {
        text.utf8.count <= 45 && (try? SocketAddress(ipAddress: text, port: 0)) != nil
    }
}
