import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP client (URLSession) for the tests, with enough connections per host for 50
/// concurrent requests.
struct HTTPTestClient: Sendable {
    /// A response: status, headers and the body parsed as a JSON object when it is one.
    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body as a JSON object (empty when it is not one).
        var json: [String: String] {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [:] }
            return object.compactMapValues { value in
                if let string = value as? String { return string }
                if let number = value as? NSNumber { return number.stringValue }
                return nil
            }
        }

        /// A header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// `GET base/path`.
    func get(_ base: URL, _ path: String) async throws -> Response {
        try await send(URLRequest(url: base.appendingPathComponent(path)))
    }

    /// `POST base/path` with a form body built from `fields` (in order, percent-encoded).
    func postForm(_ base: URL, _ path: String, _ fields: [(String, String)]) async throws -> Response {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        return try await post(base, path, body: Data(body.utf8))
    }

    /// `POST base/path` with a raw body.
    func post(_ base: URL, _ path: String, body: Data, contentType: String = "application/x-www-form-urlencoded") async throws -> Response {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try await send(request)
    }

    /// `POST base/path` streaming `body` without a Content-Length (chunked transfer encoding), so
    /// the server learns the size only while reading.
    func postStreamed(_ base: URL, _ path: String, body: Data) async throws -> Response {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBodyStream = InputStream(data: body)
        return try await send(request)
    }

    func send(_ request: URLRequest) async throws -> Response {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestSetupError("not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return Response(status: http.statusCode, headers: headers, body: data)
    }
}
