import Foundation

/// A backend's answer: status, headers in the order received, the whole body, the URL that
/// answered after same-origin redirects, and how long the call took.
///
/// Printing a response shows the status, the byte count and the header names only.
public struct BackendResponse: Sendable, Hashable, CustomStringConvertible {
    /// The status code, such as 200.
    public var status: Int
    /// The headers in the order received.
    public var headers: BackendHeaders
    /// The body, at most ``OutboundPolicy/maximumResponseBytes`` bytes.
    public var body: [UInt8]
    /// The URL that gave this response: the request's, or the last same-origin redirect's.
    public var url: URL
    /// The time from the call's start to the body's last byte, redirects included.
    public var elapsed: Duration

    /// Creates a response.
    public init(status: Int, headers: BackendHeaders, body: [UInt8], url: URL, elapsed: Duration) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.elapsed = elapsed
    }

    /// The status, the body's size and the header names.
    public var description: String {
        "\(status), \(body.count) bytes, headers: \(headers)"
    }
}
