/// What actually sends a request: `URLSessionTransport` (module `TandemURLSession`) in apps, a
/// fake in tests.
///
/// A transport reports only failures to get an answer (no connection, timeout) as errors; every
/// answer, whatever its status, is an ``HTTPResponse``.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's answer.
    ///
    /// - Parameter request: The request, after every middleware has seen it.
    /// - Throws: ``AuthError/transport(_:)`` when no answer could be had.
    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse
}
