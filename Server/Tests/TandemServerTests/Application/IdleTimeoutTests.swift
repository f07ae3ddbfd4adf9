import Foundation
import TandemServerTestSupport
import TandemTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that stops halfway through a request is disconnected after the idle timeout,
/// instead of holding a connection open forever.
@Suite("idle timeout")
struct IdleTimeoutTests {
    /// Connects to `port` on loopback, sends `bytes`, and waits up to `wait` for the server to
    /// close the connection. Returns whether it did.
    static func serverCloses(port: Int, after bytes: String, wait: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSetupError("connect() failed") }
        var timeout = timeval(tv_sec: wait, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withCString { send(fd, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let received = recv(fd, &buffer, buffer.count, 0)
        return received == 0 || (received < 0 && errno == ECONNRESET)
    }

    @Test("a half-sent request is closed after --idle-timeout")
    func halfSentRequestIsClosed() async throws {
        let scratch = try TemporaryDirectory()
        let server = try await ServerProcess(
            database: "sqlite:" + scratch.url.appendingPathComponent("tandem.sqlite").path, graceSeconds: 5, scratch: scratch.url,
            arguments: ["--idle-timeout", "1"])
        let port = try #require(server.baseURL.port)
        let started = ContinuousClock.now
        let closed = try Self.serverCloses(port: port, after: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n", wait: 6)
        let elapsed = ContinuousClock.now - started
        try await server.stop()
        #expect(closed, "the server kept the half-sent request open for 6 s")
        #expect(elapsed < .seconds(4))
    }
}
