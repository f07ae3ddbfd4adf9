import Foundation
import TandemServerTestSupport

/// A browser stand-in for the sign-in page: it never follows redirects (the test reads the
/// `Location`), and keeps cookies in its own jar, sending them back on every request.
final class BrowserTestClient: @unchecked Sendable {
    // @unchecked: the jar is only touched from the test's own task, one request at a time.
    private(set) var cookies: [String: String] = [:]
    private let client: InProcessClient

    /// A browser with an empty jar, talking to `client`'s server.
    init(_ client: InProcessClient) {
        self.client = client
    }

    /// `GET /pathAndQuery`, with extra request `headers` (such as a `User-Agent`).
    func get(_ pathAndQuery: String, headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        try await remember(client.get(pathAndQuery, headers: headers.merging(cookieHeader) { $1 }))
    }

    /// `POST /path` with a form body built from `fields`, and extra request `headers`.
    func postForm(_ path: String, _ fields: [(String, String)], headers: [String: String] = [:]) async throws -> HTTPTestResponse {
        try await remember(client.postForm(path, fields, headers: headers.merging(cookieHeader) { $1 }))
    }

    /// Forgets every cookie.
    func clearCookies() { cookies = [:] }

    /// The hidden `csrf_token` of a sign-in page.
    static func formToken(in html: String) -> String? {
        hiddenValue("csrf_token", in: html)
    }

    /// The value of the first field named `name` in `html`.
    static func hiddenValue(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: #"name="\#(name)" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The query parameters of a `Location`.
    static func query(of location: String) -> [String: String] {
        guard let items = URLComponents(string: location)?.queryItems else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private var cookieHeader: [String: String] {
        cookies.isEmpty ? [:] : ["Cookie": cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")]
    }

    /// Keeps the cookies `response` sets.
    private func remember(_ response: HTTPTestResponse) -> HTTPTestResponse {
        if let setCookie = response.header("Set-Cookie") {
            // Several Set-Cookie fields arrive joined with ", "; cookie values here never contain commas.
            for cookie in setCookie.components(separatedBy: ", ") {
                let pair = cookie.split(separator: ";", maxSplits: 1).first ?? ""
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { cookies[String(parts[0]).trimmingCharacters(in: .whitespaces)] = String(parts[1]) }
            }
        }
        return response
    }
}
