import Foundation
import TandemPlatform
import TandemProtocol
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Redeeming an SSO passcode while the desktop decides: the app polls every interval,
/// `slow_down` adds five seconds to it, and it gives up at its timeout — all on the client's
/// clock, which the test moves.
@Suite(.timeLimit(.minutes(1))) struct SSOPasscodePollingTests {
    let server = FakeAuthorizationServer()
    let clock = ManualClock()

    /// A client whose token endpoint answers `answers` in turn (the last one from then on).
    func client(answering answers: [HTTPResponse]) -> (OAuthClient, FakeTransport) {
        let remaining = Locked(answers)
        let server = server
        let transport = FakeTransport { request throws(AuthError) in
            guard request.url.path == "/oauth/token" else { return server.answer(request) }
            return remaining.withLock { answers in answers.count > 1 ? answers.removeFirst() : answers[0] }
        }
        return (OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: transport), clock: clock), transport)
    }

    static let pending = FakeAuthorizationServer.json(400, #"{"error":"authorization_pending"}"#)
    static let slowDown = FakeAuthorizationServer.json(400, #"{"error":"slow_down"}"#)
    static let tokens = FakeAuthorizationServer.json(
        200, #"{"access_token":"at_sso","token_type":"Bearer","expires_in":300,"refresh_token":"tdr_sso","scope":"data.read"}"#)

    func polls(_ transport: FakeTransport) -> Int {
        transport.requests.filter { $0.url.path == "/oauth/token" }.count
    }

    @Test func slowDownAddsFiveSecondsToTheInterval() async throws {
        let (oauth, transport) = client(answering: [Self.pending, Self.slowDown, Self.tokens])
        let redeeming = Task { try await oauth.redeemSSOPasscode("tdp_x", deviceLabel: "phone", interval: .seconds(5)) }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(4_999))
        #expect(polls(transport) == 1, "no second poll before the interval")
        clock.advance(by: .milliseconds(1))
        try await clock.waitForSleepers()  // polled again, told to slow down
        #expect(polls(transport) == 2)
        clock.advance(by: .milliseconds(9_999))
        #expect(clock.sleeperCount == 1, "after slow_down the wait is 10 s")
        clock.advance(by: .milliseconds(1))
        let tokens = try await redeeming.value
        #expect(tokens.tokens.accessToken == "at_sso")
        #expect(tokens.tokens.expiresAt == clock.now.addingTimeInterval(300), "the expiry is on the client's clock")
        #expect(polls(transport) == 3)
    }

    /// Issue 24, finding 4: phones behind one address can meet the server's per-address limit;
    /// a 429 is a reason to wait longer, not to abort onboarding.
    @Test func tooManyRequestsWaitsTheServersRetryAfterAndGoesOn() async throws {
        let limited = FakeAuthorizationServer.json(429, #"{"error":"slow_down"}"#, headers: ["Retry-After": "20"])
        let (oauth, transport) = client(answering: [Self.pending, limited, Self.pending, Self.tokens])
        let redeeming = Task { try await oauth.redeemSSOPasscode("tdp_x", deviceLabel: "phone", interval: .seconds(5)) }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        try await clock.waitForSleepers()  // polled again, told 429 with Retry-After: 20
        #expect(polls(transport) == 2)
        clock.advance(by: .milliseconds(19_999))
        #expect(polls(transport) == 2, "no poll before the server's Retry-After")
        clock.advance(by: .milliseconds(1))
        try await clock.waitForSleepers()  // pending: the wait stays at 20 s
        #expect(polls(transport) == 3)
        clock.advance(by: .seconds(20))
        let tokens = try await redeeming.value
        #expect(tokens.tokens.accessToken == "at_sso")
        #expect(polls(transport) == 4)
    }

    @Test func theWaitEndsAtItsTimeoutAsExpiredToken() async throws {
        let (oauth, transport) = client(answering: [Self.pending])
        let redeeming = Task { try await oauth.redeemSSOPasscode("tdp_x", deviceLabel: "phone", interval: .seconds(5), timeout: .seconds(12)) }
        for _ in 0..<2 {
            try await clock.waitForSleepers()
            clock.advance(by: .seconds(5))
        }
        // Polled at 0, 5 and 10 s; another 5 s would pass the 12 s timeout.
        await #expect(throws: AuthError.authorizationFailed(code: "expired_token", description: "the desktop did not approve in time")) {
            try await redeeming.value
        }
        #expect(polls(transport) == 3)
    }
}
