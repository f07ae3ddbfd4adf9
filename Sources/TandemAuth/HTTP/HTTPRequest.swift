#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request as it goes through an ``HTTPClient``'s middleware chain.
///
/// ```swift
/// let request = HTTPRequest(method: .get, url: serverURL.appendingPathComponent("v1/destinations"))
/// let response = try await client.send(request)
/// ```
public struct HTTPRequest: Sendable, Equatable {
    /// An HTTP method, such as `GET`.
    public struct Method: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The method's token as sent on the wire.
        public var rawValue: String
        /// A method from its token, such as `"PATCH"`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `GET`.
        public static let get = Method(rawValue: "GET")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// `PUT`.
        public static let put = Method(rawValue: "PUT")
        /// `DELETE`.
        public static let delete = Method(rawValue: "DELETE")
        /// `HEAD`.
        public static let head = Method(rawValue: "HEAD")
        /// The token itself.
        public var description: String { rawValue }
    }

    /// The method.
    public var method: Method
    /// The absolute URL.
    public var url: URL
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, or `nil` for none.
    public var body: Data?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - url: The absolute URL.
    ///   - headers: The header fields.
    ///   - body: The body, or `nil`.
    public init(method: Method = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
