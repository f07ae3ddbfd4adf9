#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gives every request an `X-Correlation-ID` (a fresh UUID unless the request has one), so one
/// user action can be followed through the client's and the server's logs.
public struct CorrelationIDMiddleware: HTTPMiddleware {
    /// The header name.
    public static let headerName = "X-Correlation-ID"
    private let makeID: @Sendable () -> String

    /// A middleware creating ids with `makeID`.
    ///
    /// - Parameter makeID: Makes a new id; a random UUID by default.
    public init(makeID: @escaping @Sendable () -> String = { UUID().uuidString }) {
        self.makeID = makeID
    }

    /// Adds the id when missing and passes the request on.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        var request = request
        if request.headers[Self.headerName] == nil { request.headers[Self.headerName] = makeID() }
        return try await next(request)
    }
}
