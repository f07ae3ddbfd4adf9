import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A browser stand-in for the sign-in page: it never follows redirects (the test reads the
/// `Location`), and keeps cookies in its own jar, sending them back on every request.
final class BrowserTestClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: the jar is only touched from the test's own task, one request at a time.
    private(set) var cookies: [String: String] = [:]
    private var session: URLSession!

    override init() {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// `GET url`.
    func get(_ url: URL) async throws -> HTTPTestClient.Response {
        try await send(URLRequest(url: url))
    }

    /// `POST url` with a form body built from `fields`.
    func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> HTTPTestClient.Response {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(Self.formEncode(fields).utf8)
        return try await send(request)
    }

    /// Forgets every cookie.
    func clearCookies() { cookies = [:] }

    /// `name=value&…`, percent-encoded.
    static func formEncode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
    }

    /// The hidden `csrf_token` of a sign-in page.
    static func formToken(in html: String) -> String? {
        guard let range = html.range(of: #"name="csrf_token" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The query parameters of a `Location`.
    static func query(of location: String) -> [String: String] {
        guard let items = URLComponents(string: location)?.queryItems else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// Sends `original` with the jar's cookies; a `401` comes back as a response, not as a
    /// credential prompt.
    func send(_ original: URLRequest) async throws -> HTTPTestClient.Response {
        var request = original
        if !cookies.isEmpty {
            request.setValue(cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; "), forHTTPHeaderField: "Cookie")
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestSetupError("not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        if let setCookie = headers.first(where: { $0.key.lowercased() == "set-cookie" })?.value {
            // FoundationNetworking joins several Set-Cookie headers with ", "; cookie values here never contain commas.
            for cookie in setCookie.components(separatedBy: ", ") {
                let pair = cookie.split(separator: ";", maxSplits: 1).first ?? ""
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { cookies[String(parts[0]).trimmingCharacters(in: .whitespaces)] = String(parts[1]) }
            }
        }
        return HTTPTestClient.Response(status: http.statusCode, headers: headers, body: data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
