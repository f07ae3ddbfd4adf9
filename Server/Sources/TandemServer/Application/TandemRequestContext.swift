import Hummingbird
import NIOCore

/// The request context of every Tandem route: Hummingbird's basic context plus the address of
/// the peer, which the sign-in page limits attempts by.
///
/// The address is the TCP peer's; behind a reverse proxy it is the proxy's, unless the proxy is
/// configured as trusted (``ForwardedSourceMiddleware``): forwarded headers from anyone else are
/// ignored, since any client can set them. Requests without a socket (router-mode tests) have
/// none.
struct TandemRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    var coreContext: CoreRequestContextStorage
    /// The connected peer, when there is a socket.
    let remoteAddress: SocketAddress?
    /// The client's address as a trusted proxy forwarded it.
    var forwardedSource: String?

    /// Creates the context of one request on `source`'s channel.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address (a trusted proxy's forwarded one, or the peer's), or
    /// `"unknown"`: the key of the per-source limits.
    var sourceKey: String {
        forwardedSource ?? peerKey
    }

    /// The TCP peer's IP address, or `"unknown"`.
    var peerKey: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
