/// Sends requests through an ordered chain of ``HTTPMiddleware`` and then a transport.
///
/// The first middleware is the outermost: it sees a request first and its response last.
///
/// ```swift
/// let client = HTTPClient(transport: URLSessionTransport(), middlewares: [
///     CorrelationIDMiddleware(),
///     LoggingMiddleware(),
///     ClientHeadersMiddleware(appID: "com.example.app", appVersion: "1.2", deviceID: deviceID),
///     BearerTokenMiddleware(provider: coordinator),
/// ])
/// let response = try await client.send(HTTPRequest(url: destinationsURL))
/// ```
public struct HTTPClient: Sendable {
    /// What sends the request once every middleware has seen it.
    public let transport: any HTTPTransport
    /// The chain, outermost first.
    public let middlewares: [any HTTPMiddleware]

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Sends the final request: `URLSessionTransport` (module `TandemURLSession`)
    ///     in apps, a fake in tests.
    ///   - middlewares: The chain, outermost first.
    public init(transport: any HTTPTransport, middlewares: [any HTTPMiddleware] = []) {
        self.transport = transport
        self.middlewares = middlewares
        // Linked once, innermost first: each middleware's `next` is the rest of the chain.
        var chain: HTTPHandler = { request throws(AuthError) in try await transport.send(request) }
        for middleware in middlewares.reversed() {
            let next = chain
            chain = { request throws(AuthError) in try await middleware.intercept(request, next: next) }
        }
        self.chain = chain
    }

    /// The middlewares linked to the transport.
    private let chain: HTTPHandler

    /// Sends `request` through the chain and returns the response; any status is a response.
    ///
    /// - Throws: ``AuthError/transport(_:)`` when no answer came, or what a middleware throws.
    public func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        try await chain(request)
    }

    /// A copy of this client with `middleware` added innermost (just before the transport).
    public func adding(_ middleware: any HTTPMiddleware) -> HTTPClient {
        HTTPClient(transport: transport, middlewares: middlewares + [middleware])
    }
}
