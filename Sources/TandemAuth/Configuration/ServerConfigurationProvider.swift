#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// The configuration the server publishes for an app at `GET /v1/apps/{clientId}/configuration`.
///
/// The server must be one the app was built for, and the document must name it as its issuer.
///
/// ```swift
/// let provider = ServerConfigurationProvider(
///     serverURL: server, clientID: "tandem-demo", client: HTTPClient(), allowedServers: try ServerAllowlist([server]))
/// let configuration = try await provider.configuration()
/// ```
public struct ServerConfigurationProvider: ConfigurationProvider {
    /// The server's base URL.
    public let serverURL: URL
    /// The app's client id.
    public let clientID: String
    /// The servers the app was built for.
    public let allowedServers: ServerAllowlist
    private let client: HTTPClient

    /// A provider asking `serverURL` about `clientID`.
    ///
    /// - Parameters:
    ///   - serverURL: The server's base URL.
    ///   - clientID: The app's client id.
    ///   - client: Sends the request (no credentials are needed: the document is public).
    ///   - allowedServers: The servers the app was built for; `serverURL` must be one.
    public init(serverURL: URL, clientID: String, client: HTTPClient, allowedServers: ServerAllowlist) {
        self.serverURL = serverURL
        self.clientID = clientID
        self.client = client
        self.allowedServers = allowedServers
    }

    /// The server's configuration for the app.
    ///
    /// - Throws: ``AuthError/server(status:code:description:)`` (404 for an unknown app),
    ///   ``AuthError/transport(_:)``, ``AuthError/invalidConfiguration(_:)`` when the document
    ///   is not the documented shape, ``AuthError/serverNotAllowed(_:)`` when `serverURL` is not
    ///   allowed, ``AuthError/issuerMismatch(expected:actual:)`` when the document names another
    ///   issuer.
    public func configuration() async throws(AuthError) -> ClientConfiguration {
        try allowedServers.check(serverURL)
        guard let url = URL(string: APIPath.appConfiguration(clientID: clientID), relativeTo: serverURL)?.absoluteURL else {
            throw .invalidConfiguration("client id \(clientID.debugDescription) cannot form a URL")
        }
        let response = try await client.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        guard response.isSuccess else { throw AuthError(response: response) }
        let document: AppConfigurationDocument
        do {
            document = try JSONDecoder().decode(AppConfigurationDocument.self, from: response.body)
        } catch {
            throw .invalidConfiguration("the server's configuration document is not the documented JSON")
        }
        guard let issuer = URL(string: document.issuer), issuer.scheme != nil else {
            throw .invalidConfiguration("the configuration's issuer is not an absolute URL")
        }
        try ServerAllowlist.checkIssuer(issuer, expected: serverURL)
        guard let mode = ClientConfiguration.SecurityMode(rawValue: document.securityMode) else {
            throw .invalidConfiguration("unknown security_mode \(document.securityMode)")
        }
        return try ClientConfiguration(
            serverURL: issuer, clientID: document.clientID,
            redirectURI: document.redirectURIs.first.flatMap { URL(string: $0) }, urlScheme: document.urlScheme,
            securityMode: mode, scopes: document.defaultScope.split(separator: " ").map(String.init), name: document.name,
            passcodePolicy: document.passcodePolicy, ssoLinkHost: document.ssoLinkHost, lockScreenRedaction: document.lockScreenRedaction,
            dpopRequired: document.dpopRequired, actionPolicy: document.actionPolicy
        ).validated()
    }
}
