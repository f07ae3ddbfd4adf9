/// The rest of an ``HTTPClient``'s chain, as seen by a middleware: the following middlewares,
/// then the transport.
public typealias HTTPHandler = @Sendable (HTTPRequest) async throws(AuthError) -> HTTPResponse

/// One link of an ``HTTPClient``'s chain: it sees every request on its way out and every
/// response on its way back, and may change either, answer by itself, or call `next` again.
///
/// ```swift
/// struct AcceptJSON: HTTPMiddleware {
///     func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
///         var request = request
///         request.headers["Accept"] = "application/json"
///         return try await next(request)
///     }
/// }
/// ```
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`, usually by passing it (changed or not) to `next`.
    ///
    /// - Parameters:
    ///   - request: The request as the middlewares before this one left it.
    ///   - next: Sends a request through the rest of the chain and returns its response.
    func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse
}
