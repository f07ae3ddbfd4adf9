import Foundation
import TandemProtocol
import Testing
@testable import TandemAuth

@Suite struct OAuthClientTests {
    let server = FakeAuthorizationServer()

    func client(_ transport: FakeTransport) -> OAuthClient {
        OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: transport))
    }

    // MARK: - PKCE and the authorization URL

    @Test func pkceChallengeMatchesRFC7636AppendixB() throws {
        let verifier = try PKCEVerifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(verifier.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func shortOrIllegalVerifiersAreRefused() {
        #expect(throws: AuthError.self) { try PKCEVerifier("too-short") }
        #expect(throws: AuthError.self) { try PKCEVerifier(String(repeating: "a", count: 42) + "/") }
    }

    @Test func authorizationURLCarriesTheS256ChallengeAndAFreshState() async throws {
        let oauth = client(server.transport())
        let first = try await oauth.startAuthorization()
        let second = try await oauth.startAuthorization()
        let items = try #require(URLComponents(url: first.url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(first.url.path == "/oauth/authorize")
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "tandem-demo")
        #expect(query["redirect_uri"] == "tandemdemo://oauth/callback")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"] == first.verifier.challenge)
        #expect(query["state"] == first.state)
        #expect(first.state != second.state)
        #expect(first.verifier != second.verifier)
        #expect(!"\(first)".contains(first.state))
    }

    // MARK: - Redirects

    @Test func redirectWithAnotherStateIsRefused() async throws {
        let oauth = client(server.transport())
        let pending = try await oauth.startAuthorization()
        #expect(throws: AuthError.stateMismatch) {
            try oauth.authorizationCode(from: URL(string: "tandemdemo://oauth/callback?code=c1&state=forged")!, for: pending)
        }
        #expect(throws: AuthError.stateMismatch) {
            try oauth.authorizationCode(from: URL(string: "tandemdemo://oauth/callback?code=c1")!, for: pending)
        }
    }

    @Test func errorRedirectBecomesAuthorizationFailedOnlyWithOurState() async throws {
        let oauth = client(server.transport())
        let pending = try await oauth.startAuthorization()
        let denied = URL(string: "tandemdemo://oauth/callback?error=access_denied&error_description=no&state=\(pending.state)")!
        #expect(throws: AuthError.authorizationFailed(code: "access_denied", description: "no")) {
            try oauth.authorizationCode(from: denied, for: pending)
        }
        let forged = URL(string: "tandemdemo://oauth/callback?error=access_denied&state=other")!
        #expect(throws: AuthError.stateMismatch) { try oauth.authorizationCode(from: forged, for: pending) }
    }

    @Test func redirectToAnotherURIOrWithoutCodeIsRefused() async throws {
        let oauth = client(server.transport())
        let pending = try await oauth.startAuthorization()
        #expect(throws: AuthError.self) {
            try oauth.authorizationCode(from: URL(string: "evil://oauth/callback?code=c&state=\(pending.state)")!, for: pending)
        }
        #expect(throws: AuthError.invalidRedirect("it carries no code")) {
            try oauth.authorizationCode(from: URL(string: "tandemdemo://oauth/callback?state=\(pending.state)")!, for: pending)
        }
    }

    @Test func completingAuthorizationSendsCodeVerifierAndRedirectURI() async throws {
        let transport = server.transport()
        let oauth = client(transport)
        let pending = try await oauth.startAuthorization()
        let tokens = try await oauth.completeAuthorization(
            redirect: URL(string: "tandemdemo://oauth/callback?code=c1&state=\(pending.state)")!, for: pending)
        #expect(tokens.accessToken == "at_code")
        #expect(tokens.refreshToken == "tdr_0")
        let form = FakeTransport.form(try #require(transport.requests.last))
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "c1")
        #expect(form["code_verifier"] == pending.verifier.value)
        #expect(form["redirect_uri"] == "tandemdemo://oauth/callback")
        #expect(form["client_id"] == "tandem-demo")
    }

    // MARK: - Discovery, refresh, revoke, exchange

    @Test func metadataIsFetchedOnceAndCached() async throws {
        let transport = server.transport()
        let oauth = client(transport)
        _ = try await oauth.metadata()
        _ = try await oauth.startAuthorization()
        #expect(transport.requests.filter { $0.url.path == APIPath.serverMetadata }.count == 1)
    }

    @Test func refreshRotatesTheRefreshToken() async throws {
        let oauth = client(server.transport())
        let tokens = try await oauth.refresh(TokenSet(accessToken: "at_0", refreshToken: "tdr_0", expiresAt: Date()))
        #expect(tokens.accessToken == "at_1")
        #expect(tokens.refreshToken == "tdr_1")
        await #expect(throws: AuthError.reauthenticationRequired) {
            try await oauth.refresh(TokenSet(accessToken: "at_0", refreshToken: "tdr_0", expiresAt: Date()))
        }
    }

    @Test func revokeSendsTheRefreshTokenWithItsHint() async throws {
        let transport = server.transport()
        try await client(transport).revoke(TokenSet(accessToken: "at", refreshToken: "tdr_9", expiresAt: Date()))
        let form = FakeTransport.form(try #require(transport.requests.last))
        #expect(form == ["token": "tdr_9", "token_type_hint": "refresh_token", "client_id": "tandem-demo"])
    }

    @Test func extensionGrantIsATokenExchangeOfTheAccessToken() async throws {
        let transport = server.transport()
        _ = try await client(transport).exchangeForExtensionGrant(accessToken: "user-at")
        let form = FakeTransport.form(try #require(transport.requests.last))
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(form["subject_token"] == "user-at")
        #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(form["audience"] == "tandem-extension")
        #expect(form["client_id"] == "tandem-demo")
    }

    // MARK: - Errors

    @Test(arguments: [
        (FakeAuthorizationServer.json(400, #"{"error":"invalid_grant","error_description":"gone"}"#), AuthError.reauthenticationRequired),
        (FakeAuthorizationServer.json(400, #"{"error":"invalid_request","error_description":"code is required"}"#),
         AuthError.server(status: 400, code: "invalid_request", description: "code is required")),
        (FakeAuthorizationServer.json(401, #"{"error":"invalid_client","error_description":"unknown client"}"#),
         AuthError.server(status: 401, code: "invalid_client", description: "unknown client")),
        (FakeAuthorizationServer.json(429, #"{"error":"slow_down","error_description":"wait"}"#, headers: ["Retry-After": "7"]),
         AuthError.rateLimited(retryAfter: 7)),
        (HTTPResponse(status: 502, body: Data("<html>".utf8)), AuthError.server(status: 502, code: nil, description: nil)),
        (FakeAuthorizationServer.json(200, #"{"access_token":"#), AuthError.malformedResponse("the token response is not the expected JSON")),
    ])
    func tokenEndpointAnswersBecomeTypedErrors(answer: HTTPResponse, expected: AuthError) async throws {
        let transport = FakeTransport { request throws(AuthError) in
            request.url.path == "/oauth/token" ? answer : FakeAuthorizationServer().answer(request)
        }
        await #expect(throws: expected) {
            try await client(transport).refresh(TokenSet(accessToken: "a", refreshToken: "tdr_0", expiresAt: Date()))
        }
    }

    @Test func tokenSetDescriptionsNeverShowTokens() {
        let tokens = TokenSet(accessToken: "at_secret", refreshToken: "tdr_secret", expiresAt: Date(), scope: "data.read")
        var dumped = ""
        dump(tokens, to: &dumped)
        for text in ["\(tokens)", String(reflecting: tokens), dumped] {
            #expect(!text.contains("at_secret"))
            #expect(!text.contains("tdr_secret"))
        }
    }
}
