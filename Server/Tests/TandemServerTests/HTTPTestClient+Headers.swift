import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTestClient {
    /// `GET base/pathAndQuery` with extra request headers; the path may carry a query string.
    func get(_ base: URL, _ pathAndQuery: String, headers: [String: String]) async throws -> Response {
        try await send(Self.request(base, pathAndQuery, method: "GET", headers: headers))
    }

    /// `POST base/pathAndQuery` with a raw body and extra request headers.
    func post(_ base: URL, _ pathAndQuery: String, body: Data, contentType: String, headers: [String: String]) async throws -> Response {
        var request = try Self.request(base, pathAndQuery, method: "POST", headers: headers)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try await send(request)
    }

    /// `POST base/pathAndQuery` streaming `body` without a Content-Length (chunked), with extra headers.
    func postStreamed(_ base: URL, _ pathAndQuery: String, body: Data, contentType: String, headers: [String: String]) async throws -> Response {
        var request = try Self.request(base, pathAndQuery, method: "POST", headers: headers)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBodyStream = InputStream(data: body)
        return try await send(request)
    }

    private static func request(_ base: URL, _ pathAndQuery: String, method: String, headers: [String: String]) throws -> URLRequest {
        guard let url = URL(string: base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/" + pathAndQuery) else {
            throw TestSetupError("bad URL path \(pathAndQuery)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}
