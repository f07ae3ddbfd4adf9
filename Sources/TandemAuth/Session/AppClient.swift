#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform

/// The HTTP and OAuth clients an app process (the host or one of its extensions) builds from its
/// ``ClientConfiguration``, with the middlewares every request gets: a correlation id, the app's
/// identifying headers and one log line per request (never a secret). Credentials are added per
/// use, so one `AppClient` serves both the user's tokens and the extensions' grant.
///
/// ```swift
/// let client = AppClient(
///     configuration: configuration, role: "widget", appVersion: "1.4.0", transport: URLSessionTransport())
/// let response = try await client.get("/v1/destinations", tokens: coordinator)
/// ```
public struct AppClient: Sendable {
    /// The app's configuration, as the server described it.
    public let configuration: ClientConfiguration
    /// The client without credentials; add a bearer or API-key middleware per use.
    public let http: HTTPClient
    /// The OAuth client for this app.
    public let oauth: OAuthClient

    /// Builds the clients for `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: The app's client configuration.
    ///   - role: The process's role (`host`, `widget`, …), sent in the app id header as
    ///     `<client id>.<role>` so the server can tell the processes apart.
    ///   - appVersion: The app's version, sent in the app headers.
    ///   - transport: How requests reach the network: `URLSessionTransport` (module
    ///     `TandemURLSession`) in apps.
    ///   - logger: Where the per-request log line goes.
    ///   - clock: The OAuth client's clock (token expiries, the SSO approval's polling, DPoP
    ///     proofs' `iat`).
    ///   - dpopKey: The key of this process's own grant, for the OAuth client
    ///     (``OAuthClient/dpopKey``): the host's ``DPoPKeyStore/host(in:makesMissingKey:)``; `nil` for none.
    public init(
        configuration: ClientConfiguration, role: String, appVersion: String,
        transport: any HTTPTransport, logger: Logger = Logger(label: "tandem.auth.http"), clock: any WallClock = SystemClock(),
        dpopKey: (any DPoPKeyProvider)? = nil
    ) {
        self.configuration = configuration
        http = HTTPClient(
            transport: transport,
            middlewares: [
                CorrelationIDMiddleware(),
                ClientHeadersMiddleware(appID: "\(configuration.clientID).\(role)", appVersion: appVersion),
                LoggingMiddleware(logger: logger),
            ])
        oauth = OAuthClient(configuration: configuration, client: http, clock: clock, dpopKey: dpopKey)
    }

    /// `GET`s `path` (with its query) on the app's server with `provider`'s access token, refreshed
    /// and retried once on a 401.
    ///
    /// - Returns: The response; a non-2xx status is returned, not thrown.
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when `path` does not make a URL on the
    ///   server; the provider's and the transport's errors.
    public func get(_ path: String, tokens provider: any AccessTokenProvider) async throws(AuthError) -> HTTPResponse {
        try await get(path, credentials: .tokens(provider))
    }

    /// `GET`s `path` (with its query) on the app's server with `credentials`: an access token
    /// (refreshed and retried once on a 401; a DPoP-bound one with a proof dated by the OAuth
    /// client's clock) or the app's API key.
    ///
    /// - Returns: The response; a non-2xx status is returned, not thrown.
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when `path` does not make a URL on the
    ///   server; the token provider's and the transport's errors.
    public func get(_ path: String, credentials: RequestCredentials) async throws(AuthError) -> HTTPResponse {
        let request = HTTPRequest(method: .get, url: try url(path), headers: ["Accept": "application/json"])
        switch credentials {
        case .tokens(let provider): return try await http.adding(BearerTokenMiddleware(provider: provider, clock: oauth.clock)).send(request)
        case .apiKey(let key): return try await http.adding(APIKeyMiddleware(authentication: key)).send(request)
        }
    }

    /// The absolute URL of `path` on the app's server.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` when `path` does not make a URL.
    public func url(_ path: String) throws(AuthError) -> URL {
        guard let url = URL(string: path, relativeTo: configuration.serverURL)?.absoluteURL else {
            throw .invalidConfiguration("cannot build a URL on \(configuration.serverURL) from \(path)")
        }
        return url
    }
}
