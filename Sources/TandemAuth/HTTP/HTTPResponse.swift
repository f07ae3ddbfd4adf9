#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP response as it comes back through an ``HTTPClient``'s middleware chain.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, such as `200`.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (empty when there is none).
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
