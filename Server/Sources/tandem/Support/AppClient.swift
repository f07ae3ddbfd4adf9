import Foundation
import TandemAuth
import TandemBridge
import TandemServer

/// The HTTP and OAuth clients a host or widget process builds from the app's client
/// configuration, with the middlewares every request gets: a correlation id, the app's headers
/// and a log line (never a secret) per request.
struct AppClient: Sendable {
    /// The app's configuration, as the server described it.
    let configuration: ClientConfiguration
    /// The client without credentials; bearer or API-key middlewares are added per use.
    let http: HTTPClient
    /// The OAuth client for this app.
    let oauth: OAuthClient

    /// Builds the clients for `configuration`, naming the process (`host` or `widget`) in the
    /// app headers.
    init(configuration: ClientConfiguration, role: String) {
        self.configuration = configuration
        http = HTTPClient(
            transport: URLSessionTransport(),
            middlewares: [
                CorrelationIDMiddleware(),
                ClientHeadersMiddleware(appID: "\(configuration.clientID).\(role)", appVersion: TandemServerInfo.version),
                LoggingMiddleware(logger: ToolLogger.make(label: "tandem.\(role).http")),
            ])
        oauth = OAuthClient(configuration: configuration, client: http)
    }

    /// Fetches the page `key` names with `provider`'s access token (refreshed once on a 401).
    ///
    /// - Returns: The response; a non-2xx status is returned, not thrown.
    func page(_ key: EntitySetKey, tokens provider: any AccessTokenProvider) async throws(AuthError) -> HTTPResponse {
        guard let url = URL(string: key.resourcePath, relativeTo: configuration.serverURL)?.absoluteURL else {
            throw .invalidConfiguration("cannot build a resource URL from \(key.resourcePath)")
        }
        return try await http.adding(BearerTokenMiddleware(provider: provider)).send(HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
    }
}
