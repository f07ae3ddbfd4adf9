import Crypto
import Foundation
import HummingbirdTesting
import Logging
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// A database with a user, an OAuth app and a resource server's API key, the server built on it
/// in process, and the browser steps of the authorization code flow against it. The seed and
/// every server built here run on the fixture's ``clock``, which only the test moves.
struct OAuthFlowFixture: Sendable {
    static let username = "ada"
    static let password = "correct horse battery staple"
    static let clientID = "widget-demo"
    static let redirectURI = "widgetdemo://oauth/callback"

    /// The seeded database.
    let database: TestDatabase
    /// The resource server's API key (for introspection).
    let apiKey: String
    /// The user's id.
    let userID: String
    /// The time of the seed and of every server ``test(logger:configure:_:)`` builds.
    let clock: ManualClock

    /// Seeds `database` at `clock`'s time.
    static func seed(_ database: TestDatabase, clock: ManualClock = ManualClock()) async throws -> OAuthFlowFixture {
        let (apiKey, userID) = try await database.withStorage { storage in
            let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: clock)
            let user = try await admin.createUser(username: username, password: password)
            try await admin.createApp(
                clientID: clientID, name: "Widget Demo", redirectURIs: [redirectURI, "http://127.0.0.1/callback"],
                urlScheme: "widgetdemo", securityMode: .oauth, ssoEnabled: true)
            try await admin.createApp(
                clientID: "resource-server", name: "Resource server", redirectURIs: [], urlScheme: nil,
                securityMode: .apiKey, ssoEnabled: false)
            try await admin.setResourceServer(clientID: "resource-server", audiences: [OAuthScope.apiAudience, OAuthScope.extensionAudience])
            return (try await admin.createAPIKey(clientID: "resource-server"), user.id)
        }
        return OAuthFlowFixture(database: database, apiKey: apiKey, userID: userID, clock: clock)
    }

    /// Builds the server on the seeded database in process, on ``clock``, and runs `body` against
    /// it (through the router, or over a real socket with `.live`).
    func test<Result: Sendable>(
        _ setup: TestingSetup = .router, logger: Logger = LogCapture.discarding,
        configure: (inout TandemServerConfiguration) -> Void = { _ in }, _ body: @Sendable (InProcessClient) async throws -> Result
    ) async throws -> Result {
        try await InProcessServer.test(database, setup, logger: logger, clock: clock, configure: configure, body)
    }

    /// A fresh PKCE verifier and its S256 challenge.
    static func pkce() -> (verifier: String, challenge: String) {
        let verifier = SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode($0) }
        let challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
        return (verifier, challenge)
    }

    /// The authorization request's path and query for `challenge`, with overrides (a `nil` value drops the parameter).
    func authorizeURL(challenge: String, state: String = "xyz", overrides: [String: String?] = [:]) -> String {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": Self.clientID, "redirect_uri": Self.redirectURI, "scope": "data.read events.write offline_access",
            "state": state, "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        parameters.merge(overrides) { _, new in new }
        var components = URLComponents()
        components.path = "/oauth/authorize"
        components.queryItems = parameters.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }.sorted { $0.name < $1.name }
        return components.string ?? "/oauth/authorize"
    }

    /// Loads the sign-in page, submits the credentials and returns the redirect's `Location`.
    func signIn(
        _ browser: BrowserTestClient, challenge: String, username: String = username, password: String = password,
        overrides: [String: String?] = [:]
    ) async throws -> (status: Int, location: String?, page: HTTPTestResponse) {
        let url = authorizeURL(challenge: challenge, overrides: overrides)
        let page = try await browser.get(url)
        guard page.status == 200, let html = String(data: page.body, encoding: .utf8), let token = BrowserTestClient.formToken(in: html) else {
            throw TestSetupError("no sign-in form: \(page.status) \(String(decoding: page.body, as: UTF8.self))")
        }
        var fields = (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        fields += [("username", username), ("password", password), ("csrf_token", token)]
        let response = try await browser.postForm("oauth/authorize", fields)
        return (response.status, response.header("Location"), response)
    }

    /// Signs in with a fresh PKCE pair and returns the pair and the code the redirect carries.
    func signedInCode(_ browser: BrowserTestClient) async throws -> (pkce: (verifier: String, challenge: String), code: String) {
        let pkce = Self.pkce()
        let signIn = try await signIn(browser, challenge: pkce.challenge)
        guard let code = BrowserTestClient.query(of: signIn.location ?? "")["code"] else {
            throw TestSetupError("sign-in gave no code: \(signIn.status) \(signIn.location ?? "no redirect")")
        }
        return (pkce, code)
    }

    /// Posts the one-click confirmation of the request at `url` with `token` (the page's
    /// `confirm_token`), as the page's "Continue" button does.
    func confirm(_ browser: BrowserTestClient, url: String, token: String) async throws -> HTTPTestResponse {
        var fields = (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        fields.append(("confirm_token", token))
        return try await browser.postForm("oauth/authorize", fields)
    }

    /// The code grant's token request.
    func redeem(_ client: InProcessClient, code: String, verifier: String, redirectURI: String = redirectURI, clientID: String = clientID) async throws -> HTTPTestResponse {
        try await client.postForm("oauth/token", [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", clientID), ("code_verifier", verifier),
        ])
    }

    /// A refresh grant.
    func refresh(_ client: InProcessClient, _ token: String, clientID: String = clientID) async throws -> HTTPTestResponse {
        try await client.postForm("oauth/token", [
            ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID),
        ])
    }

    /// An RFC 8693 token exchange of `subjectToken` (an access token), with `extra` parameters.
    func exchange(_ client: InProcessClient, _ subjectToken: String, _ extra: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await client.postForm("oauth/token", [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("client_id", Self.clientID),
            ("subject_token", subjectToken), ("subject_token_type", "urn:ietf:params:oauth:token-type:access_token"),
        ] + extra)
    }

    /// An introspection request authenticated with the resource server's key.
    func introspect(_ client: InProcessClient, _ token: String) async throws -> [String: String] {
        let response = try await client.postForm("oauth/introspect", [("token", token)], headers: ["X-API-Key": apiKey])
        guard response.status == 200 else { throw TestSetupError("introspection answered \(response.status)") }
        return response.json
    }
}
