import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TandemProtocol
@testable import TandemServer
import TandemTestSupport

/// A customer's backend on the loopback for the reading tests: a REST list and an OData V4
/// collection of each user's own items (the user named by the bearer token's
/// `preferred_username`, or, once it requires a technical user, by the token in `Tandem-User`
/// of a call that carries that user's HTTP Basic), each page with an `ETag` over its body and
/// `304` for a matching `If-None-Match`; a test can make it answer any status instead, and read
/// every request it got.
final class FakeCustomerBackend: Sendable {
    /// One request as the backend saw it.
    struct Seen: Sendable {
        /// The path.
        var path: String
        /// The query, decoded.
        var query: [String: String]
        /// The bearer token's claims, or nil without one.
        var claims: [String: JSONValue]?
        /// The `If-None-Match` header.
        var ifNoneMatch: String?
        /// The technical user the call authenticated as (HTTP Basic), when one is required.
        var technicalUser: String?
    }

    private struct State {
        var items: [String: [[String: String]]] = [:]
        var status: Int?
        var cacheControl: String?
        var technicalUser: (username: String, password: String)?
        var seen: [Seen] = []
    }

    private let state = Mutex(State())

    /// An empty backend.
    init() {}

    /// Gives `username` these items (each a string-valued JSON object).
    func setItems(_ items: [[String: String]], of username: String) {
        state.withLock { $0.items[username] = items }
    }

    /// Makes every answer `status` (nil: answer normally).
    func answer(_ status: Int?) {
        state.withLock { $0.status = status }
    }

    /// From now on, answers only calls with `Authorization: Basic` of `username` and `password`
    /// (others: 401), for the user named by the token in `Tandem-User`.
    func requireTechnicalUser(_ username: String, password: String) {
        state.withLock { $0.technicalUser = (username, password) }
    }

    /// Sends `Cache-Control: value` with every page.
    func sendCacheControl(_ value: String?) {
        state.withLock { $0.cacheControl = value }
    }

    /// Every request so far, oldest first.
    var seen: [Seen] { state.withLock { $0.seen } }

    /// Runs `body` with the backend serving on a loopback port, then stops it.
    func serve<Result: Sendable>(_ body: @Sendable (_ baseURL: String) async throws -> Result) async throws -> Result {
        let router = Router()
        router.get("/rest/items") { request, _ in self.answer(request, odata: false) }
        router.get("/odata/Items") { request, _ in self.answer(request, odata: true) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            guard let port = client.port else { throw TestSetupError("the backend has no port") }
            return try await body("http://127.0.0.1:\(port)/")
        }
    }

    private func answer(_ request: Request, odata: Bool) -> Response {
        let technical = state.withLock { $0.technicalUser }
        let claims: [String: JSONValue]?
        var technicalUser: String?
        if let technical {
            let expected = "Basic " + Data("\(technical.username):\(technical.password)".utf8).base64EncodedString()
            technicalUser = request.headers[.authorization] == expected ? technical.username : nil
            claims = technicalUser == nil ? nil : request.headers.first { $0.name.canonicalName == "tandem-user" }.flatMap { Self.claims(ofBearer: "Bearer " + $0.value) }
        } else {
            claims = request.headers[.authorization].flatMap(Self.claims(ofBearer:))
        }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let seen = Seen(
            path: request.uri.path, query: query, claims: claims, ifNoneMatch: request.headers[.ifNoneMatch], technicalUser: technicalUser)
        let (status, items, cacheControl) = state.withLock { state in
            state.seen.append(seen)
            let username = Self.string(claims?["preferred_username"])
            return (state.status, username.flatMap { state.items[$0] }, state.cacheControl)
        }
        if let status { return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}"))) }
        guard let items else { return Response(status: .unauthorized) }
        let skip = Int(query["$skip"] ?? "") ?? 0
        let top = Int(query["$top"] ?? "") ?? items.count
        let page = Array(items.dropFirst(skip).prefix(top))
        let encoded = page.map { item in "{" + item.sorted { $0.key < $1.key }.map { "\(JSONString.quoted($0.key)):\(JSONString.quoted($0.value))" }.joined(separator: ",") + "}" }
        let body = odata
            ? "{\"@odata.count\":\(items.count),\"value\":[\(encoded.joined(separator: ","))]}"
            : "{\"results\":[\(encoded.joined(separator: ","))]}"
        let tag = "\"" + SHA256.hash(data: Data(body.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined() + "\""
        var headers: HTTPFields = [.eTag: tag]
        if let cacheControl { headers[.cacheControl] = cacheControl }
        if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The text of a string claim.
    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func claims(ofBearer header: String) -> [String: JSONValue]? {
        guard header.hasPrefix("Bearer ") else { return nil }
        let parts = header.dropFirst(7).split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: payload)
    }
}
