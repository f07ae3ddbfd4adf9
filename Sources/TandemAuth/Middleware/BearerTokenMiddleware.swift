/// Sends `Authorization: Bearer <access token>` and, when the server answers 401, refreshes the
/// token once and retries the request once.
///
/// A second 401 is returned as it is: a token the server refuses right after a refresh will not
/// be accepted by refreshing again, and looping would only burn refresh tokens.
///
/// ```swift
/// let client = HTTPClient(middlewares: [BearerTokenMiddleware(provider: coordinator)])
/// ```
public struct BearerTokenMiddleware: HTTPMiddleware {
    private let provider: any AccessTokenProvider

    /// A middleware taking tokens from `provider`.
    ///
    /// - Parameter provider: Gives the current token and refreshes it after a 401.
    public init(provider: any AccessTokenProvider) {
        self.provider = provider
    }

    /// Adds the bearer token, and on 401 refreshes once and retries once.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        let token = try await provider.accessToken()
        let response = try await next(Self.authorized(request, with: token))
        guard response.status == 401 else { return response }
        let refreshed = try await provider.refreshedAccessToken(replacing: token)
        return try await next(Self.authorized(request, with: refreshed))
    }

    private static func authorized(_ request: HTTPRequest, with token: String) -> HTTPRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}
