import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// Widget taps counted by the host: the tap URL a widget builds, routed by `tandem host
/// open-url`, queued durably and sent to the server; with the server stopped in the middle of
/// a flush and started again, every tap arrives exactly once.
@Suite("Widget tap analytics across processes", .serialized)
struct WidgetTapAnalyticsTests {
    static let taps = 40

    @Test func noTapIsLostOrCountedTwiceWhenTheServerStopsDuringAFlush() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let url = try await tapURL(fixture)

        for _ in 0..<Self.taps {
            let opened = try await fixture.host(["open-url", url, "--no-flush"])
            #expect(opened.status == 0, "\(opened.stderr)")
        }
        #expect(try ExtensionFixture.lastJSON(try await fixture.host(["open-url", "tandem-demo://widget/x?family=nope"]).stdout)["result"] as? String == "refused")

        // One event per request, so the flush is still going when the server goes away.
        let before = try await fixture.requestCount(method: "POST", path: "/v1/events")
        async let interrupted = fixture.host(["flush-events", "--batch-size", "1"])
        try await waitUntil("the flush's first request", poll: .milliseconds(2)) {
            try await fixture.requestCount(method: "POST", path: "/v1/events") != before
        }
        try await fixture.stop()
        let cut = try await interrupted
        #expect(cut.status != 0, "the flush could not finish with the server gone: \(cut.stdout)")

        let restarted = try await fixture.restartedServer()
        defer { Task { try? await restarted.stop() } }
        let flush = try await fixture.host(["flush-events"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let flushed = try ExtensionFixture.lastJSON(flush.stdout)
        #expect(flushed["queued"] as? Int == 0)
        #expect((flushed["sent"] as? Int ?? 0) < Self.taps, "part of the taps went before the stop")

        let summary = try await fixture.host(["analytics-summary"])
        #expect(summary.status == 0, "\(summary.stderr)")
        let counted = try ExtensionFixture.lastJSON(summary.stdout)
        #expect(counted["total"] as? Int == Self.taps, "\(counted)")
        let groups = try #require(counted["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["family"] as? String == "systemMedium")
        #expect(groups.first?["kind"] as? String == "business-data")
    }

    /// The URL `tandem widget tap` prints for a medium widget showing sales orders.
    private func tapURL(_ fixture: ExtensionFixture) async throws -> String {
        let tap = try await fixture.widget([
            "tap", "--family", "systemMedium", "--destination", "sales", "--entity-set", "SalesOrders", "--target", "SO500001",
        ])
        #expect(tap.status == 0, "\(tap.stderr)")
        let url = tap.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("tandem-demo://widget/business-data?"))
        return url
    }
}
