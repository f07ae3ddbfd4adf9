import Foundation
import Synchronization
import TandemBackends
import Testing

@Suite("Circuit breaker")
struct CircuitBreakerTests {
    private static let destination = "https://erp.example.com"
    private static let settings = CircuitBreakerSettings(
        failureThreshold: 3, failureWindow: .seconds(60), openDuration: .seconds(30), latencySampleCount: 10)

    private func fail(_ breaker: CircuitBreaker, times: Int) throws {
        for _ in 0..<times {
            let permit = try breaker.admit(Self.destination)
            breaker.record(.failure, latency: .milliseconds(100), for: permit)
        }
    }

    private func refusal(_ breaker: CircuitBreaker) -> OutboundCallError? {
        do {
            _ = try breaker.admit(Self.destination)
            return nil
        } catch {
            return error
        }
    }

    @Test("Consecutive failures open the circuit, which then fails fast until its time is up")
    func opens() throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(settings: Self.settings, now: clock.reading)
        try fail(breaker, times: 2)
        #expect(refusal(breaker) == nil)
        try fail(breaker, times: 1)
        #expect(refusal(breaker) == .circuitOpen(retryAfter: .seconds(30)))
        clock.advance(by: .seconds(10))
        #expect(refusal(breaker) == .circuitOpen(retryAfter: .seconds(20)))
        #expect(breaker.health(of: Self.destination)?.state == .open(retryAfter: .seconds(20)))
        #expect(breaker.health(of: Self.destination)?.rejections == 2)
    }

    @Test("A success clears the failure run, and failures outside the window do not count")
    func runAndWindow() throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(settings: Self.settings, now: clock.reading)
        try fail(breaker, times: 2)
        breaker.record(.success, latency: .milliseconds(5), for: try breaker.admit(Self.destination))
        try fail(breaker, times: 2)
        #expect(refusal(breaker) == nil)
        clock.advance(by: .seconds(61))
        try fail(breaker, times: 1)
        #expect(breaker.health(of: Self.destination)?.recentFailures == 1)
        #expect(refusal(breaker) == nil)
    }

    @Test("After the open time one probe goes through; others fail fast; its success closes the circuit")
    func halfOpenThenClosed() throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(settings: Self.settings, now: clock.reading)
        try fail(breaker, times: 3)
        clock.advance(by: .seconds(30))
        let probe = try breaker.admit(Self.destination)
        #expect(probe.isProbe)
        #expect(breaker.health(of: Self.destination)?.state == .halfOpen)
        guard case .circuitOpen = refusal(breaker) else {
            Issue.record("a second call got through while the probe was under way")
            return
        }
        breaker.record(.success, latency: .milliseconds(20), for: probe)
        #expect(breaker.health(of: Self.destination)?.state == .closed)
        let next = try breaker.admit(Self.destination)
        #expect(!next.isProbe)
    }

    @Test("A failed probe opens the circuit again for the whole open time")
    func probeFails() throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(settings: Self.settings, now: clock.reading)
        try fail(breaker, times: 3)
        clock.advance(by: .seconds(31))
        breaker.record(.failure, latency: .seconds(1), for: try breaker.admit(Self.destination))
        #expect(refusal(breaker) == .circuitOpen(retryAfter: .seconds(30)))
    }

    @Test("A probe that ends neutrally, or is never recorded, lets another call probe")
    func probeReleased() throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(settings: Self.settings, now: clock.reading)
        try fail(breaker, times: 3)
        clock.advance(by: .seconds(30))
        breaker.record(.neutral, latency: .zero, for: try breaker.admit(Self.destination))
        let lost = try breaker.admit(Self.destination)
        #expect(lost.isProbe)
        clock.advance(by: .seconds(29))
        #expect(refusal(breaker) == .circuitOpen(retryAfter: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(try breaker.admit(Self.destination).isProbe)
    }

    @Test("Destinations are independent, and the snapshot counts calls and summarizes latency")
    func snapshot() throws {
        let breaker = CircuitBreaker(settings: Self.settings, now: TestClock().reading)
        try fail(breaker, times: 3)
        for milliseconds in 1...20 {
            let permit = try breaker.admit("https://crm.example.com")
            breaker.record(.success, latency: .milliseconds(milliseconds), for: permit)
        }
        let page = breaker.snapshot()
        #expect(page.map(\.destination) == ["https://crm.example.com", Self.destination])
        let crm = page[0]
        #expect(crm.state == .closed)
        #expect(crm.successes == 20)
        #expect(crm.failures == 0)
        #expect(crm.latency.sampleCount == 10)
        #expect(crm.latency.p50 == .milliseconds(15))
        #expect(crm.latency.p95 == .milliseconds(20))
        #expect(page[1].failures == 3)
        #expect(page[1].state == .open(retryAfter: .seconds(30)))
    }

    @Test("Latency percentiles are nearest-rank")
    func percentiles() {
        let summary = LatencySummary(samples: (1...100).reversed().map { .milliseconds($0) })
        #expect(summary.p50 == .milliseconds(50))
        #expect(summary.p95 == .milliseconds(95))
        #expect(LatencySummary(samples: [.seconds(2)]).p95 == .seconds(2))
        #expect(LatencySummary(samples: []).p50 == nil)
    }

    @Test(
        "Through the client: 5xx answers open the circuit, calls then fail fast without a connection, and a good probe closes it"
    )
    func throughTheClient() async throws {
        let clock = TestClock()
        let healthy = TestFlag()
        try await withTestServer(respond: { _ in healthy.isSet ? .text("ok") : .text("down", status: 503) }) { server in
            var policy = loopbackPolicy()
            policy.circuitBreaker = CircuitBreakerSettings(failureThreshold: 2, openDuration: .seconds(30))
            try await withClient(policy, now: clock.reading) { client in
                let url = server.url("/")
                for _ in 0..<2 {
                    let response = try await client.send(BackendRequest(.get, url))
                    #expect(response.status == 503)
                }
                let fastFailure = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, url))
                }
                #expect(fastFailure == .circuitOpen(retryAfter: .seconds(30)))
                #expect(server.requests.count == 2)
                healthy.set()
                clock.advance(by: .seconds(30))
                let probe = try await client.send(BackendRequest(.get, url))
                #expect(probe.status == 200)
                let health = try #require(client.health().first)
                #expect(health.state == .closed)
                #expect(health.successes == 1)
                #expect(health.failures == 2)
                #expect(health.rejections == 1)
                #expect(health.latency.sampleCount == 3)
            }
        }
    }
}

/// A flag one task sets and another reads.
final class TestFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
