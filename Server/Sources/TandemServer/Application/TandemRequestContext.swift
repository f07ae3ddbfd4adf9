import Hummingbird
import NIOCore

/// The request context of every Tandem route: Hummingbird's basic context plus the address of
/// the peer, which the sign-in page limits attempts by.
///
/// The address is the TCP peer's; behind a reverse proxy it is the proxy's (forwarded headers
/// are not trusted, since any client can set them). Requests without a socket (router-mode tests)
/// have none.
struct TandemRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    var coreContext: CoreRequestContextStorage
    /// The connected peer, when there is a socket.
    let remoteAddress: SocketAddress?

    /// Creates the context of one request on `source`'s channel.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address, or `"unknown"`: the key of the per-source sign-in limit.
    var sourceKey: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
