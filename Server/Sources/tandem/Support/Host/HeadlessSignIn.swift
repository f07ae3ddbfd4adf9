import Foundation
import TandemTool

#if canImport(FoundationNetworking)
import FoundationNetworking
import TandemProtocol
#endif

/// Signs a user in on the Tandem server's HTML sign-in page without a person, for the
/// command-line host: it opens the authorization URL, fills in the form it is given (keeping
/// the anti-forgery cookie, as a browser would) and returns the redirect the server answers
/// with, which carries the authorization code.
///
/// It never follows redirects: the redirect URI belongs to the app (`tandem-demo://…`), and the
/// code in it is what the caller exchanges.
final class HeadlessSignIn: NSObject, URLSessionTaskDelegate, Sendable {
    private let username: String
    private let password: String

    /// Creates a sign-in for one user.
    ///
    /// - Parameters:
    ///   - username: The user's name on the server.
    ///   - password: The user's password; sent only in the form's POST body.
    init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// Runs the sign-in for `authorizationURL`.
    ///
    /// - Returns: The URL the server redirected to (the app's redirect URI with `code` and
    ///   `state`, or with `error`).
    /// - Throws: `CommandFailure` when the page is not a sign-in form or the credentials are refused.
    func redirect(for authorizationURL: URL) async throws -> URL {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }

        let (page, pageResponse) = try await session.data(from: authorizationURL)
        let pageHTTP = try Self.http(pageResponse)
        if let location = pageHTTP.value(forHTTPHeaderField: "Location"), let url = URL(string: location) {
            return url  // an error redirect straight away (for example an unknown scope)
        }
        guard pageHTTP.statusCode == 200 else {
            throw CommandFailure("the sign-in page answered \(pageHTTP.statusCode): \(Self.text(of: page))")
        }
        var fields = Self.hiddenFields(in: String(decoding: page, as: UTF8.self))
        guard fields.contains(where: { $0.name == "csrf_token" }) else {
            throw CommandFailure("\(authorizationURL.host ?? "the server") did not show a Tandem sign-in form")
        }
        fields.append(("username", username))
        fields.append(("password", password))

        var post = URLRequest(url: authorizationURL)
        post.url = URL(string: "/oauth/authorize", relativeTo: authorizationURL)?.absoluteURL
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let cookie = pageHTTP.value(forHTTPHeaderField: "Set-Cookie") {
            post.setValue(Self.cookieHeader(fromSetCookie: cookie), forHTTPHeaderField: "Cookie")
        }
        post.httpBody = FormEncoding.encode(fields.map { ($0.name, $0.value) })
        let (answer, answerResponse) = try await session.data(for: post)
        let answerHTTP = try Self.http(answerResponse)
        guard (300..<400).contains(answerHTTP.statusCode),
            let location = answerHTTP.value(forHTTPHeaderField: "Location"), let url = URL(string: location)
        else {
            throw CommandFailure("sign-in as \(username) failed (\(answerHTTP.statusCode)): \(Self.text(of: answer))")
        }
        return url
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    // MARK: - Page reading

    private static func http(_ response: URLResponse) throws -> HTTPURLResponse {
        guard let http = response as? HTTPURLResponse else { throw CommandFailure("not an HTTP response") }
        return http
    }

    /// The `name`/`value` pairs of the page's hidden inputs, HTML entities decoded.
    static func hiddenFields(in html: String) -> [(name: String, value: String)] {
        var fields: [(String, String)] = []
        var rest = html[...]
        while let start = rest.range(of: #"<input type="hidden" name=""#) {
            rest = rest[start.upperBound...]
            let name = rest.prefix { $0 != "\"" }
            guard let valueStart = rest.range(of: #"value=""#) else { break }
            rest = rest[valueStart.upperBound...]
            let value = rest.prefix { $0 != "\"" }
            fields.append((String(name), unescape(String(value))))
        }
        return fields
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `name=value` pairs of a `Set-Cookie` header (FoundationNetworking joins several with ", ").
    private static func cookieHeader(fromSetCookie header: String) -> String {
        header.components(separatedBy: ", ").compactMap { cookie in
            cookie.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }.joined(separator: "; ")
    }

    /// The start of an error page, as one line for a message.
    private static func text(of body: Data) -> String {
        String(decoding: body.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    }
}
