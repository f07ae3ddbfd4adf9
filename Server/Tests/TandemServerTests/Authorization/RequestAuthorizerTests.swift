import Foundation
import SQLKit
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// ``RequestAuthorizer``'s caches: they save work without outliving what they cache.
@Suite("Request authorizer")
struct RequestAuthorizerTests {
    @Test("a cached token is still refused once its exp has passed")
    func cachedTokenExpiresOnTime() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                let keys = fixture.keys
                let signer = try await AccessTokenSigner(signingKey: keys.signingKey, issuer: BusinessDataFixture.issuer)
                let authorizer = RequestAuthorizer(
                    accessTokens: signer, apps: storage.apps, revocations: RevocationList(tokens: storage.tokens, window: signer.lifetime))
                let issued = Timestamp(fixture.clock.now)
                let token = try await fixture.accessToken(issuedAt: issued)
                let principal = try await authorizer.authorize(
                    authorization: "Bearer \(token)", apiKey: nil, requiring: OAuthScope.dataRead, now: issued)
                #expect(principal.clientID == ServerAdministration.demoClientID)
                #expect(principal.subject == fixture.user.id)
                #expect(principal.credential == .bearer)
                // Within the token's life the cached claims answer; past its exp they do not.
                let later = issued.adding(.seconds(299))
                #expect(try await authorizer.authorize(authorization: "Bearer \(token)", apiKey: nil, requiring: OAuthScope.dataRead, now: later).subject == fixture.user.id)
                await #expect(throws: AuthorizationFailure.self) {
                    try await authorizer.authorize(authorization: "Bearer \(token)", apiKey: nil, requiring: OAuthScope.dataRead, now: issued.adding(.seconds(301)))
                }
                await #expect(throws: AuthorizationFailure.insufficientScope(OAuthScope.dataWrite)) {
                    try await authorizer.authorize(
                        authorization: "Bearer \(try await fixture.accessToken(scope: OAuthScope.dataRead))", apiKey: nil, requiring: OAuthScope.dataWrite, now: issued)
                }
                await #expect(throws: AuthorizationFailure.missingCredential) {
                    try await authorizer.authorize(authorization: nil, apiKey: nil, requiring: OAuthScope.dataRead, now: issued)
                }
            }
        }
    }

    @Test("a revoked API key keeps working only until its cached lookup expires", arguments: TestBackend.allCases)
    func revokedKeyIsRefusedAfterTheCacheLifetime(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                let signer = try await AccessTokenSigner(signingKey: fixture.keys.signingKey, issuer: BusinessDataFixture.issuer)
                let authorizer = RequestAuthorizer(
                    accessTokens: signer, apps: storage.apps, apiKeyCacheLifetime: .seconds(30),
                    revocations: RevocationList(tokens: storage.tokens, window: signer.lifetime))
                let now = Timestamp(fixture.clock.now)
                let principal = try await authorizer.authorize(authorization: nil, apiKey: fixture.apiKey, requiring: OAuthScope.eventsWrite, now: now)
                #expect(principal == RequestPrincipal(
                    clientID: ServerAdministration.demoKioskClientID, subject: nil, scopes: RequestAuthorizer.apiKeyScopes, audience: nil, credential: .apiKey))
                await #expect(throws: AuthorizationFailure.insufficientScope(OAuthScope.dataWrite)) {
                    try await authorizer.authorize(authorization: nil, apiKey: fixture.apiKey, requiring: OAuthScope.dataWrite, now: now)
                }
                try await storage.connector.withConnection { db in
                    try await db.raw("UPDATE api_keys SET revoked_at = \(bind: now.milliseconds)").run()
                }
                #expect(try await authorizer.authorize(authorization: nil, apiKey: fixture.apiKey, requiring: OAuthScope.dataRead, now: now.adding(.seconds(29))).clientID
                        == ServerAdministration.demoKioskClientID)
                await #expect(throws: AuthorizationFailure.invalidAPIKey("revoked")) {
                    try await authorizer.authorize(authorization: nil, apiKey: fixture.apiKey, requiring: OAuthScope.dataRead, now: now.adding(.seconds(31)))
                }
            }
        }
    }

    @Test("the Authorization scheme matches in any case; a token with a space or tab inside, or none, is no token")
    func authorizationSchemeAndToken() {
        #expect(RequestAuthorizer.token(in: "Bearer abc.def", scheme: "bearer") == "abc.def")
        #expect(RequestAuthorizer.token(in: "bEaReR   abc", scheme: "bearer") == "abc")
        #expect(RequestAuthorizer.token(in: "DPoP abc", scheme: "dpop") == "abc")
        #expect(RequestAuthorizer.token(in: "DPoP abc", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearerx abc", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bear abc", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer abc def", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer abc\tdef", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer abc, Bearer def", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer   ", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bëarer abc", scheme: "bearer") == nil)
        #expect(RequestAuthorizer.token(in: "Bearer tök", scheme: "bearer") == "tök")
    }
}
