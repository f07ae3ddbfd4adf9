import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `/account`: every signed-in user — not only administrators — sees where they are signed in and
/// the security events about them, and signs out of one app, of everywhere, or of this browser.
@Suite("The user's account page")
struct AccountPageTests {
    static func html(_ response: HTTPTestResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// Signs `browser` in at `/signin` as the fixture's user, returning to `/account`.
    static func signIn(_ browser: BrowserTestClient) async throws {
        let form = try await browser.get("signin?next=/account")
        let token = try #require(BrowserTestClient.formToken(in: html(form)))
        let posted = try await browser.postForm("signin", [
            ("next", "/account"), ("csrf_token", token), ("username", OAuthFlowFixture.username), ("password", OAuthFlowFixture.password),
        ])
        #expect(posted.status == 303 && posted.header("Location") == "/account")
    }

    @Test("a user who is not an administrator sees their sign-ins and signs out of one app; its widgets' grant ends with it", arguments: TestBackend.allCases)
    func aUserEndsOneSignIn(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let anonymous = try await BrowserTestClient(client).get("account")
                #expect(anonymous.status == 302 && anonymous.header("Location") == "/signin?next=%2Faccount")

                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let granted = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                let refresh = try #require(granted.json["refresh_token"])
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let page = Self.html(try await browser.get("account"))
                #expect(page.contains("Widget Demo") && page.contains("Sign out of this app"))
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: page))
                let familyID = try #require(try await database.withStorage { storage in
                    try await storage.tokens.signIns(userID: fixture.userID, now: Timestamp(fixture.clock.now)).first?.id
                })

                // Without the page's token nothing ends.
                #expect(try await browser.postForm("account/sign-ins/\(familyID)/end", []).status == 403)
                #expect(try await fixture.refresh(client, refresh).status == 200, "still signed in")
                let live = try await database.withStorage { storage in
                    try await storage.tokens.signIns(userID: fixture.userID, now: Timestamp(fixture.clock.now))
                }
                let current = try #require(live.first?.id)

                let ended = try await browser.postForm("account/sign-ins/\(current)/end", [("csrf_token", token)])
                #expect(ended.status == 200 && Self.html(ended).contains("You are signed out of Widget Demo"))
                let audit = try await database.withStorage { storage in
                    try await storage.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 10).map(\.kind)
                }
                #expect(audit.contains("account.signed-out"))
                #expect(Self.html(try await browser.get("account")).contains("No app holds a sign-in of yours"))
            }
        }
    }

    @Test("another user's grant is not ended through my page")
    func anotherUsersGrantIsUntouched() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            let other = try await database.withStorage { storage in
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                let user = try await admin.createUser(username: "grace", password: "a long enough password")
                let tokens = try await admin.issueRefreshTokens(
                    username: "grace", clientID: OAuthFlowFixture.clientID, scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, count: 1)
                return (user, try #require(tokens.first))
            }
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: Self.html(try await browser.get("account"))))
                let theirs = try #require(try await database.withStorage { storage in
                    try await storage.tokens.signIns(userID: other.0.id, now: Timestamp(fixture.clock.now)).first?.id
                })
                let answer = try await browser.postForm("account/sign-ins/\(theirs)/end", [("csrf_token", token)])
                #expect(Self.html(answer).contains("had already ended"))
                #expect(try await fixture.refresh(client, other.1).status == 200, "their grant lives on")
            }
        }
    }

    @Test("sign out everywhere ends every grant and every browser session of the user, this one included")
    func signOutEverywhere() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let refresh = try #require(try await fixture.redeem(client, code: code, verifier: pkce.verifier).json["refresh_token"])
                let laptop = BrowserTestClient(client)
                try await Self.signIn(laptop)
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let token = try #require(BrowserTestClient.hiddenValue("csrf_token", in: Self.html(try await browser.get("account"))))
                let out = try await browser.postForm("account/sign-out-everywhere", [("csrf_token", token)])
                #expect(out.status == 303 && out.header("Set-Cookie")?.contains("Max-Age=0") == true)
                #expect(try await fixture.refresh(client, refresh).json["error"] == "invalid_grant")
                #expect(try await laptop.get("account").status == 302, "the other browser is signed out too")
                let audit = try await database.withStorage { storage in
                    try await storage.audit.auditEvents(clientID: nil, userID: fixture.userID, limit: 10).map(\.kind)
                }
                #expect(audit.contains("account.signed-out-everywhere"))
            }
        }
    }

    @Test("the page shows a sign-in's enrolled approval key and the audit line that says so")
    func enrolmentIsShownToTheUser() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (code, verifier) = try await StepUpKeyEnrolmentTests.code(fixture, client)
                let granted = try await client.postForm(
                    "oauth/token",
                    try StepUpKeyEnrolmentTests.codeFields(code, verifier: verifier, enrolling: SoftwareDPoPKey(), issuedAt: fixture.clock.now))
                #expect(granted.status == 200)
                let browser = BrowserTestClient(client)
                try await Self.signIn(browser)
                let page = Self.html(try await browser.get("account"))
                #expect(page.contains("enrolled 20"), "the approval key's enrolment date")
                #expect(page.contains("stepup.enrolled"))
            }
        }
    }
}
