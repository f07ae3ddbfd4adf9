import Foundation

/// One call to a backend: method, URL, headers and an optional body.
///
/// Printing a request shows the method, the origin and the header names only; the path, query,
/// header values and body stay out of logs.
///
/// ```swift
/// let request = BackendRequest(
///     .get, URL(string: "https://erp.example.com/sap/opu/odata/sap/ZORDERS/Orders?$top=20")!,
///     headers: ["Accept": "application/json", "Authorization": "Bearer " + token])
/// ```
public struct BackendRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: BackendHTTPMethod
    /// The absolute URL: `https`, or `http` to a loopback host when the policy allows loopback.
    public var url: URL
    /// The headers to send. `Host` is set by the client from the URL.
    public var headers: BackendHeaders
    /// The body to send, if any.
    public var body: [UInt8]?

    /// Creates a request.
    public init(_ method: BackendHTTPMethod, _ url: URL, headers: BackendHeaders = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The method, the origin and the header names.
    public var description: String {
        let origin = BackendOrigin(url: url)?.description ?? "an unreadable URL"
        return "\(method) \(origin) headers: \(headers)"
    }
}
