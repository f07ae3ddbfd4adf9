/// Tells the server which app, version and device a request comes from (`X-App-ID`,
/// `X-App-Version`, `X-Device-ID`), for analytics and support. Nothing here is a secret: the
/// device id is a random install id, not a hardware identifier.
public struct ClientHeadersMiddleware: HTTPMiddleware {
    private let appID: String
    private let appVersion: String
    private let deviceID: String?

    /// A middleware sending these headers.
    ///
    /// - Parameters:
    ///   - appID: The app's identifier, such as its bundle id.
    ///   - appVersion: The app's version, such as `1.4.2 (210)`.
    ///   - deviceID: A random per-install id, or `nil` to send none.
    public init(appID: String, appVersion: String, deviceID: String? = nil) {
        self.appID = appID
        self.appVersion = appVersion
        self.deviceID = deviceID
    }

    /// Adds the headers (leaving a value the request already has) and passes the request on.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        var request = request
        for (name, value) in [("X-App-ID", appID), ("X-App-Version", appVersion), ("X-Device-ID", deviceID)] {
            if let value, request.headers[name] == nil { request.headers[name] = value }
        }
        return try await next(request)
    }
}
