import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TandemTestSupport
import TandemProtocol

/// A real HTTP client (URLSession) for tests that talk to a real socket: `tandem serve`
/// processes, and bodies streamed without a Content-Length. Enough connections per host for 50
/// concurrent requests.
public struct HTTPTestClient: Sendable {
    private let session: URLSession

    /// Creates a client with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// `GET base/path` with `headers`.
    public func get(_ base: URL, _ path: String, headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        var request = URLRequest(url: base.appendingPathComponent(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }

    /// `POST base/path` with a form body built from `fields` (in order, percent-encoded) and
    /// `headers`.
    public func postForm(
        _ base: URL, _ path: String, _ fields: [(String, String)], headers: [String: String] = [:]
    ) async throws -> HTTPTestResponse {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(Self.formEncode(fields).utf8)
        return try await send(request)
    }

    /// `POST base/path` streaming `body` without a Content-Length (chunked transfer encoding), so
    /// the server learns the size only while reading.
    public func postStreamed(
        _ base: URL, _ path: String, body: Data, contentType: String = "application/x-www-form-urlencoded", headers: [String: String] = [:]
    ) async throws -> HTTPTestResponse {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBodyStream = InputStream(data: body)
        return try await send(request)
    }

    /// Sends `request` as is.
    public func send(_ request: URLRequest) async throws -> HTTPTestResponse {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestSetupError("not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return HTTPTestResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// `name=value&…`, percent-encoded, in the order given.
    public static func formEncode(_ fields: [(String, String)]) -> String {
        FormEncoding.query(fields.map { ($0, $1) })
    }
}
