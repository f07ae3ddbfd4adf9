import Foundation
import Hummingbird
import HummingbirdTesting
import TandemServerTestSupport
import TandemTestSupport

/// Requests to an ``InProcessServer``, answered as ``HTTPTestResponse``s.
struct InProcessClient: Sendable {
    let client: any TestClientProtocol

    /// `GET /pathAndQuery` with extra request headers.
    func get(_ pathAndQuery: String, headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        try await send(.get, pathAndQuery, headers: headers, body: nil)
    }

    /// `POST /pathAndQuery` with a raw body.
    func post(
        _ pathAndQuery: String, body: Data, contentType: String = "application/x-www-form-urlencoded", headers: [String: String] = [:]
    ) async throws -> HTTPTestResponse {
        try await send(.post, pathAndQuery, headers: headers.merging(["Content-Type": contentType]) { $1 }, body: body)
    }

    /// `PUT /pathAndQuery` with a raw body.
    func put(
        _ pathAndQuery: String, body: Data, contentType: String = "application/json", headers: [String: String] = [:]
    ) async throws -> HTTPTestResponse {
        try await send(.put, pathAndQuery, headers: headers.merging(["Content-Type": contentType]) { $1 }, body: body)
    }

    /// `DELETE /pathAndQuery`.
    func delete(_ pathAndQuery: String, headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        try await send(.delete, pathAndQuery, headers: headers, body: nil)
    }

    /// `POST /path` with a form body built from `fields` (in order, percent-encoded).
    func postForm(_ path: String, _ fields: [(String, String)], headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        try await post(path, body: Data(HTTPTestClient.formEncode(fields).utf8), headers: headers)
    }

    /// `POST /path` streaming `body` without a Content-Length over a real socket; only in `.live` mode.
    func postStreamed(
        _ path: String, body: Data, contentType: String = "application/x-www-form-urlencoded", headers: [String: String] = [:]
    ) async throws -> HTTPTestResponse {
        guard let port = client.port, let base = URL(string: "http://localhost:\(port)") else {
            throw TestSetupError("a streamed body needs InProcessServer.test(database, .live)")
        }
        return try await HTTPTestClient().postStreamed(base, path, body: body, contentType: contentType, headers: headers)
    }

    private func send(_ method: HTTPRequest.Method, _ pathAndQuery: String, headers: [String: String], body: Data?) async throws -> HTTPTestResponse {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let field = HTTPFields.Element.Name(name) else { throw TestSetupError("bad header name \(name)") }
            fields.append(.init(name: field, value: value))
        }
        let uri = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        let response = try await client.executeRequest(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
        var received: [String: String] = [:]
        for field in response.headers {
            received[field.name.canonicalName] = received[field.name.canonicalName].map { $0 + ", " + field.value } ?? field.value
        }
        return HTTPTestResponse(status: response.status.code, headers: received, body: Data(response.body.readableBytesView))
    }
}
