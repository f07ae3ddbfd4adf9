import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request over a plain socket, `Connection: close`, read to the end.
///
/// For the answers URLSession will not hand back as they are: FoundationNetworking stalls on a
/// `401` carrying `WWW-Authenticate` while it looks for credentials.
enum RawHTTPClient {
    /// Sends `method path` to `base` with `headers` and `body`; returns the status and body.
    static func send(_ base: URL, method: String, path: String, headers: [String: String] = [:], body: Data = Data()) throws -> (status: Int, headers: String, body: Data) {
        guard let host = base.host, let port = base.port else { throw TestSetupError("no host and port in \(base)") }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSetupError("socket failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSetupError("connect failed") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        var request = Data((head + "\r\n").utf8)
        request.append(body)
        try request.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                // The server may answer and close before reading an oversized body.
                if written <= 0 { break }
                offset += written
            }
            if offset == 0 { throw TestSetupError("write failed") }
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        guard let split = response.range(of: Data("\r\n\r\n".utf8)),
              let head = String(data: response[..<split.lowerBound], encoding: .utf8),
              let status = head.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw TestSetupError("no HTTP response") }
        return (status, head, response[split.upperBound...])
    }
}
