import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// Limits that count each client, not an app or a proxy everyone shares (issue 24, findings 4
/// and 6): a trusted reverse proxy's `X-Forwarded-For` names the client; a known app's token
/// bucket is per source too; phones polling their own SSO passcodes from one address are never
/// refused, while guesses from it are.
@Suite("Per-source limits")
struct PerSourceLimitTests {
    @Test("X-Forwarded-For: the last address that is not a trusted proxy, only if it is an IP address")
    func forwardedClient() {
        let proxies: Set<String> = ["10.0.0.2", "10.0.0.3"]
        #expect(ForwardedSourceMiddleware.client(in: "203.0.113.7", trusting: proxies) == "203.0.113.7")
        #expect(ForwardedSourceMiddleware.client(in: "198.51.100.1, 203.0.113.7, 10.0.0.3", trusting: proxies) == "203.0.113.7",
                "what the client wrote itself (the first entries) does not count")
        #expect(ForwardedSourceMiddleware.client(in: "2001:db8::1", trusting: proxies) == "2001:db8::1")
        #expect(ForwardedSourceMiddleware.client(in: "not-an-address", trusting: proxies) == nil)
        #expect(ForwardedSourceMiddleware.client(in: "10.0.0.2, 10.0.0.3", trusting: proxies) == nil)
        #expect(ForwardedSourceMiddleware.client(in: "203.0.113.7\nforged", trusting: proxies) == nil)
    }

    @Test("one sender flooding an app's public client id is limited alone; another address still refreshes")
    func tokenLimitIsPerClientAndSource() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(.live, configure: { configuration in
                configuration.trustedProxies = ["127.0.0.1"]
                configuration.tokenRateLimit = RateLimitPolicy(requestsPerSecond: 0.01, burst: 3)
            }) { client in
                func refresh(from address: String) async throws -> Int {
                    try await client.postForm(
                        "oauth/token",
                        [("grant_type", "refresh_token"), ("client_id", OAuthFlowFixture.clientID), ("refresh_token", "tdr_junk")],
                        headers: ["X-Forwarded-For": address]
                    ).status
                }
                var flood: [Int] = []
                for _ in 0..<5 { flood.append(try await refresh(from: "203.0.113.66")) }
                #expect(flood == [400, 400, 400, 429, 429])
                #expect(try await refresh(from: "198.51.100.20") == 400, "another user of the app is not starved")
                let forged = try await client.postForm(
                    "oauth/token", [("grant_type", "refresh_token"), ("client_id", OAuthFlowFixture.clientID), ("refresh_token", "tdr_junk")])
                #expect(forged.status == 400, "the proxy's own address is a source of its own")
            }
        }
    }

    @Test("five phones behind one address poll their passcodes for minutes unrefused; guesses from it are refused", arguments: TestBackend.allCases)
    func phonesBehindOneAddress(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            var passcodes: [String] = []
            for _ in 0..<5 { passcodes.append(try await SSOCrossDeviceTests.issue(fixture).passcode) }
            let pending = passcodes
            try await fixture.test(configure: SSOPasscodeGrantTests.configure) { client in
                var statuses: Set<Int> = []
                for _ in 0..<24 {  // two minutes of RFC 8628 polling, five phones
                    for (index, passcode) in pending.enumerated() {
                        let device = "tdv_" + String(repeating: Character(String(index)), count: 43)
                        let poll = try await SSOPasscodeGrantTests.redeem(client, passcode, device: device)
                        statuses.insert(poll.status)
                        #expect(poll.body["error"] as? String == "authorization_pending", "\(poll.body)")
                    }
                    fixture.clock.advance(by: SSOPasscodeGrantTests.pollInterval)
                }
                #expect(statuses == [400])
                var guesses: [Int] = []
                for guess in 0..<12 {
                    guesses.append(try await SSOPasscodeGrantTests.redeem(client, "tdp_guess\(guess)" + String(repeating: "A", count: 38)).status)
                }
                #expect(guesses.filter { $0 == 429 }.count == 2, "the default burst of ten failures, then 429: \(guesses)")
            }
        }
    }
}
