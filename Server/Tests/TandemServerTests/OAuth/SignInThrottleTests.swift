import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// Sign-in limits per account (an escalating delay after failures, kept in the database) and per
/// source address: guessing one account slows down without locking anyone else out.
@Suite("Sign-in throttling")
struct SignInThrottleTests {
    @Test("a flood of wrong passwords for one user does not stop another user's sign-in (default limits)", arguments: TestBackend.allCases)
    func floodAgainstOneUserSparesAnother(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await database.withStorage { storage in
                _ = try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10))
                    .createUser(username: "grace", password: "hopper-cobol-1959")
            }
            try await fixture.test { client in
                let attacker = BrowserTestClient(client)
                for _ in 0..<30 {
                    let guess = try await fixture.signIn(attacker, challenge: OAuthFlowFixture.pkce().challenge, password: "guess")
                    #expect(guess.status == 401 || guess.status == 429)
                }
                let grace = try await fixture.signIn(
                    BrowserTestClient(client), challenge: OAuthFlowFixture.pkce().challenge, username: "grace", password: "hopper-cobol-1959")
                #expect(grace.status == 302, "another user's sign-in was refused: \(grace.status)")
                #expect(grace.location.map { BrowserTestClient.query(of: $0)["code"] != nil } == true)
            }
        }
    }

    /// The first review's probe: six wrong passwords from anywhere delayed the account for
    /// everyone, so any stranger could lock a chosen user out. The delay is per address now; only
    /// guesses from very many addresses slow the account as a whole.
    @Test("a stranger's guesses slow the stranger, not the user signing in from another address")
    func aStrangerCannotLockTheUserOut() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(.live, configure: { configuration in
                configuration.trustedProxies = ["127.0.0.1"]
                configuration.accountSignInThrottle = SignInThrottle(freeFailures: 12, firstDelay: .seconds(60))
            }) { client in
                func signIn(from address: String, password: String) async throws -> Int {
                    let site = BrowserTestClient(client)
                    let headers = ["X-Forwarded-For": address]
                    let form = String(decoding: try await site.get("signin?next=/admin", headers: headers).body, as: UTF8.self)
                    let token = try #require(BrowserTestClient.formToken(in: form))
                    return try await site.postForm("signin", [
                        ("next", "/admin"), ("csrf_token", token), ("username", OAuthFlowFixture.username), ("password", password),
                    ], headers: headers).status
                }
                var stranger: [Int] = []
                for attempt in 0..<8 { stranger.append(try await signIn(from: "203.0.113.66", password: "guess \(attempt)")) }
                #expect(stranger == [401, 401, 401, 401, 401, 429, 429, 429], "the stranger is slowed after five")
                #expect(try await signIn(from: "198.51.100.10", password: OAuthFlowFixture.password) == 303, "the user is not")

                // Guesses spread over many addresses: past the account-wide allowance, everyone waits.
                for address in 1...12 { _ = try await signIn(from: "192.0.2.\(address)", password: "spread guess") }
                #expect(try await signIn(from: "198.51.100.11", password: OAuthFlowFixture.password) == 429)
            }
        }
    }

    @Test("guesses against one account slow down, on every instance sharing the database, and a success resets them")
    func guessesAgainstOneAccountSlowDown() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let browser = BrowserTestClient(client)
                for attempt in 1...5 {
                    let guess = try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge, password: "guess \(attempt)")
                    #expect(guess.status == 401, "attempt \(attempt)")
                }
                let slowed = try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge)
                #expect(slowed.status == 429, "the sixth attempt comes too soon, even with the right password")
                #expect(slowed.page.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)
                #expect(String(decoding: slowed.page.body, as: UTF8.self).contains("Try again in"))
            }
            // Finding 11: the site's own sign-in shares the account's budget; it is not a fresh one.
            try await fixture.test { client in
                let site = BrowserTestClient(client)
                let form = String(decoding: try await site.get("signin?next=/admin").body, as: UTF8.self)
                let token = try #require(BrowserTestClient.formToken(in: form))
                let posted = try await site.postForm("signin", [
                    ("next", "/admin"), ("csrf_token", token), ("username", OAuthFlowFixture.username), ("password", OAuthFlowFixture.password),
                ])
                #expect(posted.status == 429, "the site's sign-in is delayed by the guesses made at the app's")
            }
            // A second server instance on the same database sees the same failures.
            try await fixture.test { client in
                let elsewhere = try await fixture.signIn(BrowserTestClient(client), challenge: OAuthFlowFixture.pkce().challenge)
                #expect(elsewhere.status == 429)
            }
            // Once the delay has passed, a correct password signs in and clears the count.
            fixture.clock.advance(by: SignInThrottle().delay(afterFailures: 5))
            try await fixture.test { client in
                let signedIn = try await fixture.signIn(BrowserTestClient(client), challenge: OAuthFlowFixture.pkce().challenge)
                #expect(signedIn.status == 302)
            }
            let remaining = try await database.withStorage { storage in
                try await storage.connector.withConnection { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM sign_in_failures").first()?.decode(column: "n", as: Int.self)
                }
            }
            #expect(remaining == 0)
        }
    }

    @Test("one source address is limited across usernames: 429 with Retry-After")
    func oneSourceIsLimited() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            // Six a minute after a burst of ten, on the fixture's clock: the eleventh attempt is refused however slow the machine.
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(configure: { $0.loginRateLimit = RateLimitPolicy(requestsPerSecond: 6.0 / 60, burst: 10) }) { client in
                let browser = BrowserTestClient(client)
                var statuses: [Int] = []
                var retryAfter: String?
                for attempt in 0..<15 {
                    let guess = try await fixture.signIn(
                        browser, challenge: OAuthFlowFixture.pkce().challenge, username: "user\(attempt)", password: "guess")
                    statuses.append(guess.status)
                    if guess.status == 429 { retryAfter = guess.page.header("Retry-After") }
                }
                #expect(statuses.prefix(10).allSatisfy { $0 == 401 }, "\(statuses)")
                #expect(statuses.contains(429), "\(statuses)")
                #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true)
                // One attempt a ten seconds: the window reopens for one more, then closes again.
                fixture.clock.advance(by: .seconds(10))
                let later = try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge, username: "late", password: "guess")
                #expect(later.status == 401, "the permit earned in 10 s is spent")
                let tooSoon = try await fixture.signIn(browser, challenge: OAuthFlowFixture.pkce().challenge, username: "later", password: "guess")
                #expect(tooSoon.status == 429)
            }
        }
    }
}
