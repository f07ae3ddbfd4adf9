/// Attaches the app's API key as `X-API-Key` to every request (apps in API-key mode).
///
/// ```swift
/// let client = HTTPClient(middlewares: [APIKeyMiddleware(authentication: .init(obfuscatedKey: bytes, mask: mask))])
/// ```
public struct APIKeyMiddleware: HTTPMiddleware {
    /// The header the server reads.
    public static let headerName = "X-API-Key"
    private let authentication: APIKeyAuthentication

    /// A middleware sending the key held (obfuscated) by `authentication`.
    ///
    /// - Parameter authentication: Holds the key; it is deobfuscated per request, not kept in
    ///   plain form.
    public init(authentication: APIKeyAuthentication) {
        self.authentication = authentication
    }

    /// Adds `X-API-Key` and passes the request on.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        var request = request
        request.headers[Self.headerName] = authentication.apiKey()
        return try await next(request)
    }
}
