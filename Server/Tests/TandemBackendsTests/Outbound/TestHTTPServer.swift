import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A request as the test server received it.
struct ReceivedRequest: Sendable {
    var method: String
    var uri: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What the test server answers.
struct ScriptedResponse: Sendable {
    /// How the body's end is marked.
    enum Framing: Sendable {
        /// A `Content-Length` with the body's true size.
        case contentLength
        /// A `Content-Length` with this size, whatever the body is.
        case declaredLength(Int)
        /// Chunked, no `Content-Length`.
        case chunked
    }

    var status: Int = 200
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    var framing: Framing = .contentLength
    /// Write the head and the body so far, then never end the response.
    var stalls = false
    /// Write the body in pieces of this size.
    var chunkSize = 16 * 1024
    /// Write nothing at all, not even the head.
    var silent = false

    static func text(_ text: String, status: Int = 200) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
    }

    static func redirect(_ status: Int, to location: String) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Location", location)], body: Array("moved".utf8))
    }
}

/// A real HTTP/1.1 server on the loopback, on a port the system picks, answering each request
/// with what a handler scripts, counting connections and keeping the requests it received.
final class TestHTTPServer: Sendable {
    private struct State {
        var connections = 0
        var requests: [ReceivedRequest] = []
        var children: [any Channel] = []
    }

    let host: String
    let port: Int
    private let channel: any Channel
    private let state = Mutex(State())

    private init(host: String, channel: any Channel) throws {
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        self.host = host
        self.port = port
        self.channel = channel
    }

    /// Starts a server on `host` (default `127.0.0.1`) and `port` (default one the system picks),
    /// with TLS when `tls` is given.
    static func start(
        host: String = "127.0.0.1", port: Int = 0, tls: NIOSSLContext? = nil,
        respond: @escaping @Sendable (ReceivedRequest) -> ScriptedResponse
    ) async throws -> TestHTTPServer {
        let holder = Mutex<TestHTTPServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    holder.withLock { $0?.register(child) }
                    let pipeline = child.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(
                        ScriptedHandler(respond: respond) { request in holder.withLock { $0?.record(request) } })
                }
            }
            .bind(host: host, port: port)
            .get()
        let server = try TestHTTPServer(host: host, channel: channel)
        holder.withLock { $0 = server }
        return server
    }

    /// A URL on this server: `scheme://name:port/path`, `name` defaulting to the bound host.
    func url(_ path: String, scheme: String = "http", name: String? = nil) -> URL {
        let shown = name ?? (host.contains(":") ? "[\(host)]" : host)
        return URL(string: "\(scheme)://\(shown):\(port)\(path)")!
    }

    /// How many connections arrived.
    var connectionCount: Int { state.withLock { $0.connections } }

    /// The requests received, in order.
    var requests: [ReceivedRequest] { state.withLock { $0.requests } }

    /// Closes the listening socket and every connection.
    func stop() async {
        try? await channel.close()
        let children = state.withLock { $0.children }
        for child in children {
            try? await child.close()
        }
    }

    private func register(_ child: any Channel) {
        state.withLock {
            $0.connections += 1
            $0.children.append(child)
        }
    }

    private func record(_ request: ReceivedRequest) {
        state.withLock { $0.requests.append(request) }
    }
}

enum TestServerError: Error {
    case noPort
}

/// Runs `body` with a started server and stops the server afterwards, whatever happens.
func withTestServer<Result>(
    host: String = "127.0.0.1", port: Int = 0, tls: NIOSSLContext? = nil,
    respond: @escaping @Sendable (ReceivedRequest) -> ScriptedResponse,
    _ body: (TestHTTPServer) async throws -> Result
) async throws -> Result {
    let server = try await TestHTTPServer.start(host: host, port: port, tls: tls, respond: respond)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

private final class ScriptedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let respond: @Sendable (ReceivedRequest) -> ScriptedResponse
    private let record: @Sendable (ReceivedRequest) -> Void
    private var request: ReceivedRequest?
    private var stalled = false

    init(
        respond: @escaping @Sendable (ReceivedRequest) -> ScriptedResponse,
        record: @escaping @Sendable (ReceivedRequest) -> Void
    ) {
        self.respond = respond
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = ReceivedRequest(
                method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: []
            )
        case .body(let buffer):
            request?.body += Array(buffer.readableBytesView)
        case .end:
            guard let request, !stalled else { return }
            self.request = nil
            record(request)
            write(respond(request), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func write(_ response: ScriptedResponse, context: ChannelHandlerContext) {
        guard !response.silent else {
            stalled = true
            return
        }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        switch response.framing {
        case .contentLength:
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        case .declaredLength(let length):
            headers.replaceOrAdd(name: "Content-Length", value: String(length))
        case .chunked:
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var offset = 0
        while offset < response.body.count {
            let end = min(offset + max(response.chunkSize, 1), response.body.count)
            let buffer = context.channel.allocator.buffer(bytes: response.body[offset..<end])
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            offset = end
        }
        guard !response.stalls else {
            stalled = true
            context.flush()
            return
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
