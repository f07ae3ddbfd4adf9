import Foundation
@testable import TandemServer
import TandemTestSupport
import Testing

/// The token buckets behind every per-client and per-address limit.
@Suite("Rate limiter")
struct RateLimiterTests {
    @Test("a key is limited after its burst and earns a permit back with time")
    func burstThenRefill() {
        let clock = ManualClock()
        let limiter = RateLimiter(policy: RateLimitPolicy(requestsPerSecond: 1, burst: 2), clock: clock)
        #expect(limiter.acquire("a") == .allowed)
        #expect(limiter.acquire("a") == .allowed)
        #expect(limiter.acquire("a") == .limited(retryAfterSeconds: 1))
        clock.advance(by: .seconds(1))
        #expect(limiter.acquire("a") == .allowed)
    }

    @Test("a flood of new keys past the table's size does not free the keys already limited (finding 16)")
    func aFullTableKeepsLimitedKeysLimited() {
        let clock = ManualClock()
        let limiter = RateLimiter(policy: RateLimitPolicy(requestsPerSecond: 1, burst: 1), maximumKeys: 3, clock: clock)
        #expect(limiter.acquire("abuser") == .allowed)
        #expect(limiter.acquire("abuser") == .limited(retryAfterSeconds: 1))
        // Two more busy keys fill the table; none of them is idle.
        #expect(limiter.acquire("b") == .allowed)
        #expect(limiter.acquire("c") == .allowed)
        // Newcomers share one bucket now, rather than the table starting over.
        #expect(limiter.acquire("fresh-1") == .allowed)
        #expect(limiter.acquire("fresh-2") == .limited(retryAfterSeconds: 1))
        #expect(limiter.acquire("abuser") == .limited(retryAfterSeconds: 1), "still limited")
        // Once keys have refilled (idle), they make room for new ones.
        clock.advance(by: .seconds(2))
        #expect(limiter.acquire("fresh-3") == .allowed)
        #expect(limiter.acquire("fresh-3") == .limited(retryAfterSeconds: 1), "fresh-3 has its own bucket again")
    }
}
