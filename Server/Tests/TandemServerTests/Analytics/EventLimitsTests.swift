import Foundation
import Logging
import SQLKit
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `/v1/events` cannot grow the database without bound: rate limits per app and per user, a
/// storage quota per app, caps on one event's properties, and retention.
@Suite("Analytics limits")
struct EventLimitsTests {
    static func post(_ client: InProcessClient, _ events: [[String: Any]], _ headers: [String: String]) async throws -> HTTPTestResponse {
        try await client.post("v1/events", body: try EventsEndpointTests.batch(events), contentType: "application/json", headers: headers)
    }

    /// The demo seeded on a fresh database, served in process with `limits` on the fixture's clock.
    static func withServer(
        _ backend: TestBackend, limits: AnalyticsLimits,
        _ body: @Sendable @escaping (BusinessDataFixture, InProcessClient, TestDatabase) async throws -> Void
    ) async throws {
        try await backend.withDatabase { database in
            let fixture = try await database.withStorage { try await BusinessDataFixture.seed($0) }
            try await InProcessServer.test(database, clock: fixture.clock, configure: { $0.analytics = limits }) { client in try await body(fixture, client, database) }
        }
    }

    @Test("a user over the per-user rate gets 429 rate_limited; an API key (no user) is held to the per-app rate")
    func rateLimitsPerUserAndPerApp() async throws {
        var limits = AnalyticsLimits()
        limits.perSubjectRate = RateLimitPolicy(requestsPerSecond: 0.01, burst: 2)
        limits.perClientRate = RateLimitPolicy(requestsPerSecond: 0.01, burst: 4)
        try await Self.withServer(.sqlite, limits: limits) { fixture, client, _ in
            let user = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            for _ in 0..<2 { #expect(try await Self.post(client, [EventsEndpointTests.tap()], user).status == 200) }
            let limited = try await Self.post(client, [EventsEndpointTests.tap()], user)
            #expect(limited.status == 429)
            #expect(limited.json["error"] == "rate_limited")
            #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
            fixture.clock.advance(by: .seconds(100))
            #expect(try await Self.post(client, [EventsEndpointTests.tap()], user).status == 200, "a permit back after 100 s at 0.01/s")

            let kiosk = ["X-API-Key": fixture.apiKey]
            for _ in 0..<4 { #expect(try await Self.post(client, [EventsEndpointTests.tap()], kiosk).status == 200) }
            let appLimited = try await Self.post(client, [EventsEndpointTests.tap()], kiosk)
            #expect(appLimited.status == 429)
            #expect(appLimited.json["error"] == "rate_limited")
        }
    }

    @Test("the running maintenance service sweeps once per interval of its clock")
    func maintenanceSweepsOnItsClock() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let clock = ManualClock()
            let storage = try await database.open()
            let received = Timestamp(clock.now).adding(.seconds(-100 * 24 * 3600))
            _ = try await storage.analytics.storeEvents(
                [AnalyticsEvent(id: UUID().uuidString.lowercased(), clientID: "kiosk", subject: nil, name: "widget.tap", occurredAt: received,
                                kind: nil, family: nil, configuration: nil, properties: "{}")],
                quota: .unlimited, now: received)
            let service = StorageMaintenanceService(
                database: storage, interval: .seconds(30), eventRetention: .seconds(90 * 24 * 3600), logger: LogCapture.discarding, clock: clock)
            let running = Task { try await service.run() }
            defer { running.cancel() }
            try await clock.waitForSleepers()  // the service waits on its clock
            #expect(try await EventsEndpointTests.storedEventCount(database) == 1, "no sweep before the interval")
            clock.advance(by: .seconds(30))
            // Asleep again once the sweep is done.
            try await clock.waitForSleepers()
            #expect(try await EventsEndpointTests.storedEventCount(database) == 0, "the sweep deleted the event past retention")
            running.cancel()
            try await running.value
        }
    }

    @Test("a batch that would take an app past its quota gets 429 quota_exceeded and stores nothing", arguments: TestBackend.allCases)
    func quotaRefusesWholeBatch(backend: TestBackend) async throws {
        var limits = AnalyticsLimits()
        limits.quota = AnalyticsQuota(maximumEvents: 5, maximumBytes: nil)
        try await Self.withServer(backend, limits: limits) { fixture, client, database in
            let kiosk = ["X-API-Key": fixture.apiKey]
            #expect(try await Self.post(client, (0..<3).map { _ in EventsEndpointTests.tap() }, kiosk).status == 200)
            let over = try await Self.post(client, (0..<3).map { _ in EventsEndpointTests.tap() }, kiosk)
            #expect(over.status == 429)
            #expect(over.json["error"] == "quota_exceeded")
            #expect(try await EventsEndpointTests.storedEventCount(database) == 3)
            #expect(try await Self.post(client, (0..<2).map { _ in EventsEndpointTests.tap() }, kiosk).status == 200)
            #expect(try await Self.post(client, [EventsEndpointTests.tap()], kiosk).json["error"] == "quota_exceeded")
            #expect(try await EventsEndpointTests.storedEventCount(database) == 5)
        }
    }

    @Test("too many properties get 400, too many property bytes 413; nothing is stored")
    func propertiesAreCapped() async throws {
        try await Self.withServer(.sqlite, limits: AnalyticsLimits()) { fixture, client, database in
            let kiosk = ["X-API-Key": fixture.apiKey]
            var many = EventsEndpointTests.tap()
            many["properties"] = Dictionary(uniqueKeysWithValues: (0..<33).map { ("p\($0)", "x") })
            let tooMany = try await Self.post(client, [EventsEndpointTests.tap(), many], kiosk)
            #expect(tooMany.status == 400)
            #expect(tooMany.json["error_description"]?.contains("events[1].properties") == true)
            var big = EventsEndpointTests.tap()
            big["properties"] = ["note": String(repeating: "x", count: 5000)]
            let tooBig = try await Self.post(client, [big], kiosk)
            #expect(tooBig.status == 413)
            #expect(tooBig.json["error"] == "invalid_request")
            #expect(try await EventsEndpointTests.storedEventCount(database) == 0)
        }
    }

    @Test("the maintenance sweep deletes events older than the retention and frees their quota", arguments: TestBackend.allCases)
    func retentionDeletesOldEvents(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let storage = try await database.open()
            let start = Timestamp(milliseconds: 1_750_000_000_000)
            let day = Duration.seconds(24 * 3600)
            func event() -> AnalyticsEvent {
                AnalyticsEvent(id: UUID().uuidString.lowercased(), clientID: "kiosk", subject: nil, name: "widget.tap", occurredAt: start,
                               kind: nil, family: nil, configuration: nil, properties: "{}")
            }
            let quota = AnalyticsQuota(maximumEvents: 3, maximumBytes: nil)
            _ = try await storage.analytics.storeEvents([event(), event()], quota: quota, now: start)
            _ = try await storage.analytics.storeEvents([event()], quota: quota, now: start.adding(day * 10))
            await #expect(throws: StorageError.self) { _ = try await storage.analytics.storeEvents([event()], quota: quota, now: start.adding(day * 11)) }

            let service = StorageMaintenanceService(database: storage, interval: .seconds(30), eventRetention: day * 90, logger: Logger(label: "test"))
            try await service.sweep(now: start.adding(day * 89))
            #expect(try await EventsEndpointTests.storedEventCount(database) == 3)
            try await service.sweep(now: start.adding(day * 95))
            #expect(try await EventsEndpointTests.storedEventCount(database) == 1, "the two events received 95 days ago are gone")
            #expect(try await storage.analytics.storeEvents([event(), event()], quota: quota, now: start.adding(day * 95)).accepted == 2)
            await storage.connector.shutdown()
        }
    }
}
