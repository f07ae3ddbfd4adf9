import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import Testing

@Suite("The authentication step signs in with PKCE and notices an ended session")
struct AuthenticationStepTests {
    @Test func onboardingSignsInWithPKCEAndKeepsTheTokensInTheVault() async throws {
        let fixture = try HostFixture()
        let browser = FakeSignInBrowser(server: fixture.server)
        let report = try await fixture.flow(source: try HostFixture.serverSource()).run(.onboard, in: fixture.context(browser: browser))
        #expect(report.result(of: "authentication") == .completed("signed in"))

        let opened = try #require(browser.opened.all.first)
        #expect(browser.opened.all.count == 1)
        #expect(opened.callbackScheme == "tandemdemo")
        #expect(opened.url.path == "/oauth/authorize")
        let query = Self.query(of: opened.url)
        #expect(query["client_id"] == "tandem-demo")
        #expect(query["redirect_uri"] == FakeTandemServer.redirectURI)
        #expect(query["code_challenge_method"] == "S256")
        let redemption = try #require(fixture.server.tokenRequests(grantType: "authorization_code").first)
        let verifier = try #require(redemption["code_verifier"])
        #expect(!opened.url.absoluteString.contains(verifier), "the verifier never goes through the browser")
        #expect(fixture.server.pkceMismatches == 0)

        let tokens = try #require(try fixture.userTokens())
        let family = try #require(fixture.server.liveFamily(ofAccessToken: tokens.accessToken))
        #expect(family.audience == "tandem")
        #expect(family.parent == nil)
        #expect(tokens.refreshToken.flatMap(fixture.server.liveFamily(ofRefreshToken:)) == family)
    }

    @Test func aCodeIssuedForAnotherChallengeIsRefusedAndNoTokensAreKept() async throws {
        let fixture = try HostFixture()
        // A page in between swaps the challenge for one of its own verifier.
        let browser = FakeSignInBrowser(server: fixture.server) { url in
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
            let items = components.queryItems ?? []
            components.queryItems = items.map { item in
                item.name == "code_challenge" ? URLQueryItem(name: item.name, value: PKCEVerifier().challenge) : item
            }
            return components.url ?? url
        }
        let flow = fixture.flow(source: try HostFixture.serverSource())

        let error = await #expect(throws: FlowError.self) { try await flow.run(.onboard, in: fixture.context(browser: browser)) }
        guard case .stepFailed("authentication", .onboard, let underlying)? = error else {
            Issue.record("expected the authentication step to fail, got \(String(describing: error))")
            return
        }
        #expect(underlying as? AuthError == .reauthenticationRequired, "invalid_grant: the code is spent, sign in again")
        #expect(fixture.server.pkceMismatches == 1)
        #expect(try fixture.userTokens() == nil)
        #expect(try fixture.container.status() == nil, "extension access never ran")
    }

    @Test func restoringAnEndedSessionWithoutABrowserFailsAndTellsTheWidgetsSignedOut() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        #expect(try fixture.container.status()?.state == .ready)
        fixture.server.revokeAllGrants()

        let error = await #expect(throws: FlowError.self) {
            try await fixture.flow().run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        }
        guard case .stepFailed("authentication", .restore, let underlying)? = error else {
            Issue.record("expected the authentication step to fail, got \(String(describing: error))")
            return
        }
        #expect(underlying as? AuthError == .reauthenticationRequired)
        #expect(try fixture.container.status()?.state == .signedOut)
        #expect(!fixture.vault.isUnlocked)
        #expect(fixture.server.tokenRequests(grantType: "refresh_token").count == 1, "one refresh found the grant gone")
        #expect(try fixture.userTokens() == nil, "the ended grant's tokens left the vault")
    }

    @Test func restoringAnEndedSessionWithABrowserSignsInAgainAndRearmsTheWidgets() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let oldGrant = try #require(try fixture.widgetsGrant())
        fixture.server.revokeAllGrants()

        let browser = FakeSignInBrowser(server: fixture.server)
        let context = fixture.context(configuration: configuration, browser: browser)
        let report = try await fixture.flow().run(.restore, in: context)
        #expect(report.result(of: "authentication") == .completed("session had ended: signed in again"))
        #expect(report.result(of: "extension access") == .completed("widgets re-armed with a new grant"))
        #expect(context.signedInThisRun)
        #expect(context.widgetsRearmed)
        #expect(browser.opened.all.count == 1)
        #expect(try fixture.container.status()?.state == .ready)

        let user = try #require(try fixture.userTokens())
        let userFamily = try #require(fixture.server.liveFamily(ofAccessToken: user.accessToken))
        let newGrant = try #require(try fixture.widgetsGrant())
        #expect(newGrant.refreshToken != oldGrant.refreshToken)
        let grantFamily = try #require(newGrant.refreshToken.flatMap(fixture.server.liveFamily(ofRefreshToken:)))
        #expect(grantFamily.audience == "tandem-extension")
        #expect(grantFamily.parent == userFamily.id, "exchanged from the new sign-in")
        #expect(oldGrant.refreshToken.flatMap(fixture.server.liveFamily(ofRefreshToken:)) == nil)
    }

    @Test func restoringALiveSessionRefreshesOnceAndKeepsTheWidgetsGrant() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let before = try #require(try fixture.userTokens())
        let grant = try fixture.widgetsGrant()

        let context = fixture.context(configuration: configuration)
        let report = try await fixture.flow().run(.restore, in: context)
        #expect(report.result(of: "authentication") == .completed("session continues"))
        #expect(report.result(of: "extension access") == .completed("widgets' grant kept"))
        #expect(!context.signedInThisRun)
        #expect(fixture.server.tokenRequests(grantType: "refresh_token").count == 1)
        let after = try #require(try fixture.userTokens())
        #expect(after.refreshToken != before.refreshToken, "the refresh token rotated")
        #expect(after.refreshToken.flatMap(fixture.server.liveFamily(ofRefreshToken:)) != nil)
        #expect(try fixture.widgetsGrant() == grant)
    }

    private static func query(of url: URL) -> [String: String] {
        var query: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { query[item.name] = item.value }
        return query
    }
}
