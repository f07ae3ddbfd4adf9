import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The network side of the stand-in: TLS 1.2 or later with ALPN `h2`, HTTP/2 only, each stream
/// answered by an ``APNsStandInStreamHandler``.
///
/// As "Sending notification requests to APNs" requires
/// (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns):
/// "Use HTTP/2 and TLS 1.2 or later". A client that does not speak HTTP/2 is disconnected.
final class APNsStandInServer: Sendable {
    /// The connections open now, closed by ``shutdown()``.
    private final class OpenConnections: Sendable {
        private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

        func add(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            channels.withLock { $0[id] = channel }
            channel.closeFuture.whenComplete { [self] _ in channels.withLock { _ = $0.removeValue(forKey: id) } }
        }

        func all() -> [any Channel] { channels.withLock { Array($0.values) } }
    }

    /// The port the server listens on.
    let port: Int
    private let listener: any Channel
    private let connections: OpenConnections

    private init(port: Int, listener: any Channel, connections: OpenConnections) {
        self.port = port
        self.listener = listener
        self.connections = connections
    }

    /// Listens on `host:port` and serves until ``shutdown()``.
    static func start(
        host: String, port: Int, certificates: APNsStandInCertificates,
        answer: @escaping @Sendable (APNsStandInRequest) async -> APNsStandInAnswer
    ) async throws(APNsStandInError) -> APNsStandInServer {
        let context: NIOSSLContext
        do {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificates.serverCertificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificates.serverKeyPEM.utf8), format: .pem)))
            tls.minimumTLSVersion = .tlsv12
            tls.applicationProtocols = ["h2"]
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .certificateCreationFailed(reason: "\(error)")
        }

        let connections = OpenConnections()
        let listener: any Channel
        do {
            listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    connections.add(channel)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }.flatMap {
                        channel.configureHTTP2Pipeline(
                            mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandlers([
                                    HTTP2FramePayloadToHTTP1ServerCodec(), APNsStandInStreamHandler(answer: answer),
                                ])
                            }
                        }.map { _ in () }
                    }
                }
                .bind(host: host, port: port).get()
        } catch {
            throw .bindFailed(host: host, port: port, reason: "\(error)")
        }
        return APNsStandInServer(port: listener.localAddress?.port ?? port, listener: listener, connections: connections)
    }

    /// Stops listening and closes every open connection.
    func shutdown() async {
        try? await listener.close()
        for connection in connections.all() {
            try? await connection.close()
        }
    }
}
