import Foundation
import NIOCore
import NIOPosix
import TandemBackends
import Testing

@Suite("Outbound client: timeouts")
struct TimeoutTests {
    private static let shortLimit: Duration = .milliseconds(300)

    @Test("A backend that sends its head and then stalls the body times out as a request")
    func stalledBody() async throws {
        try await withTestServer(respond: { _ in
            ScriptedResponse(body: Array("partial".utf8), framing: .declaredLength(1000), stalls: true)
        }) { server in
            try await withClient(loopbackPolicy(requestTimeout: Self.shortLimit)) { client in
                let start = ContinuousClock.now
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/slow")))
                }
                let elapsed = ContinuousClock.now - start
                #expect(error == .timedOut(.request))
                #expect(elapsed >= Self.shortLimit)
                #expect(elapsed < .seconds(60))
            }
        }
    }

    @Test("A backend that never answers times out as a request")
    func silentBackend() async throws {
        try await withTestServer(respond: { _ in ScriptedResponse(silent: true) }) { server in
            try await withClient(loopbackPolicy(requestTimeout: Self.shortLimit)) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/silent")))
                }
                #expect(error == .timedOut(.request))
            }
        }
    }

    @Test("A backend that never completes the TCP handshake times out as a connect")
    func connectTimeout() async throws {
        let listener = try await UnacceptingListener.start()
        do {
            try await withClient(loopbackPolicy(requestTimeout: .seconds(10), connectTimeout: Self.shortLimit)) {
                client in
                let start = ContinuousClock.now
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, URL(string: "http://127.0.0.1:\(listener.port)/")!))
                }
                #expect(error == .timedOut(.connect))
                #expect(ContinuousClock.now - start < .seconds(60))
            }
        } catch {
            await listener.stop()
            throw error
        }
        await listener.stop()
    }
}

/// A listening socket that never accepts, with its accept queue filled, so that the kernel drops
/// a new connection's SYN and the connection hangs until the client gives up.
private struct UnacceptingListener {
    let port: Int
    private let server: any Channel
    private let fillers: [any Channel]

    static func start() async throws -> UnacceptingListener {
        let group = MultiThreadedEventLoopGroup.singleton
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 0)
            .serverChannelOption(.autoRead, value: false)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = server.localAddress?.port else { throw TestServerError.noPort }
        var fillers: [any Channel] = []
        for _ in 0..<8 {
            do {
                let filler = try await ClientBootstrap(group: group)
                    .connectTimeout(.milliseconds(300))
                    .connect(host: "127.0.0.1", port: port)
                    .get()
                fillers.append(filler)
            } catch {
                break
            }
        }
        return UnacceptingListener(port: port, server: server, fillers: fillers)
    }

    func stop() async {
        for filler in fillers {
            try? await filler.close()
        }
        try? await server.close()
    }
}
