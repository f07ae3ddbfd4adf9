import Foundation
import TandemAuth

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `HTTPTransport` over `URLSession`: how a host app (and an extension in direct mode) reaches
/// the server.
///
/// ```swift
/// import TandemAuth
/// import TandemURLSession
///
/// let client = HTTPClient(transport: URLSessionTransport(), middlewares: [LoggingMiddleware()])
/// ```
///
/// It lives in its own module, as OpenAPI's transports do, because on Linux `URLSession` is in
/// FoundationNetworking, which loads libcurl and its TLS stack into every process that links it
/// (about 7 MB resident). A widget in brokered mode never sends a request, so it links
/// `TandemWidgets` without this module and stays small.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A transport over `session`.
    ///
    /// - Parameters:
    ///   - session: The session; an ephemeral one (no cookies, no cache on disk) by default.
    ///   - timeout: Seconds a request may take before it fails with `AuthError.transport`.
    public init(session: URLSession = URLSession(configuration: .ephemeral), timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    /// Sends `request` through the session.
    public func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            // The URL is not repeated: its query may carry something private.
            throw .transport("\(request.method) \(request.url.host ?? "?"): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport("\(request.method) \(request.url.host ?? "?"): not an HTTP response")
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers["\(name)"] = "\(value)"
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
