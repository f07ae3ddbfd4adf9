import AsyncHTTPClient
import Foundation
import NIOCore
import TandemAuth

/// How the phone day's apps reach its server: the SDK's `HTTPTransport` over AsyncHTTPClient's
/// shared connection pool.
///
/// On a phone the apps send through Apple's `URLSession` (TandemURLSession); on Linux that is
/// swift-corelibs-foundation's, which runs each request through libcurl on threads of its own and
/// is the one part of a day that is not the product's code. A matrix plays a few thousand app
/// launches against six servers at once, and one matrix run in a clean clone's `make test`
/// crashed with FoundationNetworking and libdispatch in the crashed thread's backtrace (eight runs
/// after it did not); this transport keeps the requests, headers and bodies as they are and sends
/// them on SwiftNIO, as the server's own APNs client does.
struct PhoneDayTransport: HTTPTransport {
    /// Seconds a request may take before it fails with `AuthError.transport`, as URLSessionTransport's.
    static let timeout: Int64 = 30
    /// The most a response body may hold: far above any page of the day's three rows.
    static let maximumBody = 16 << 20

    func send(_ request: TandemAuth.HTTPRequest) async throws(AuthError) -> TandemAuth.HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await AsyncHTTPClient.HTTPClient.shared.execute(outgoing, timeout: .seconds(Self.timeout))
            let body = try await response.body.collect(upTo: Self.maximumBody)
            let headers = TandemAuth.HTTPHeaders(response.headers.map { ($0.name, $0.value) })
            return TandemAuth.HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            // The URL is not repeated: its query may carry something private.
            throw .transport("\(request.method) \(request.url.host ?? "?"): \(error)")
        }
    }
}
