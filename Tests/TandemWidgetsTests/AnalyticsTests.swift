import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// The host's analytics: persisted events, flushes that lose nothing and send nothing twice,
/// and widget taps recorded when routed.
@Suite struct AnalyticsTests {
    let directory: TemporaryDirectory
    let server = EventServer()
    let clock = ManualClock(start: TestDates.at(9))

    init() throws { directory = try TemporaryDirectory() }

    func analytics(batchSize: Int = Analytics.maximumBatchSize) throws -> Analytics {
        try Analytics(directory: directory.url.appendingPathComponent("analytics"), batchSize: batchSize, clock: clock)
    }

    func track(_ count: Int, in analytics: Analytics) async throws {
        for index in 0..<count {
            clock.advance(by: .seconds(1))
            try await analytics.track(action: "report.opened", data: ["index": "\(index)"])
        }
    }

    @Test func trackedEventsSurviveANewInstance() async throws {
        try await track(3, in: try analytics())
        let reopened = try analytics()
        #expect(await reopened.pendingEvents().map { $0.properties["index"] } == ["0", "1", "2"])
        #expect(try await reopened.flush(with: server.client, tokens: StaticToken()) == 3)
        #expect(await reopened.pendingEvents().isEmpty)
        #expect(server.acceptedIDs.count == 3)
    }

    @Test func aFailedFlushKeepsEveryEvent() async throws {
        let analytics = try analytics()
        try await track(4, in: analytics)
        server.failNext(1, status: 503)
        await #expect(throws: AuthError.self) { try await analytics.flush(with: server.client, tokens: StaticToken()) }
        #expect(await analytics.pendingEvents().count == 4)
        #expect(try await analytics.flush(with: server.client, tokens: StaticToken()) == 4)
        #expect(server.acceptedIDs.count == 4)
    }

    @Test func aRetriedFlushAfterAPartialFailureSendsNoEventTwice() async throws {
        let analytics = try analytics(batchSize: 2)
        try await track(5, in: analytics)
        let tracked = Set(await analytics.pendingEvents().map(\.id))
        server.failAfter(1)
        await #expect(throws: AuthError.self) { try await analytics.flush(with: server.client, tokens: StaticToken()) }
        #expect(server.acceptedIDs.count == 2)
        #expect(await analytics.pendingEvents().count == 3)
        server.failAfter(nil)
        #expect(try await analytics.flush(with: server.client, tokens: StaticToken()) == 3)
        #expect(server.acceptedIDs.sorted() == tracked.sorted())
        #expect(server.batchSizes == [2, 2, 1])
    }

    @Test func batchesHoldAtMostWhatTheServerTakes() throws {
        #expect(try Analytics(directory: directory.url, batchSize: 10_000).batchSize == 500)
        #expect(try Analytics(directory: directory.url, batchSize: 0).batchSize == 1)
    }

    @Test func anActionTheServerWouldRefuseIsNotRecorded() async throws {
        let analytics = try analytics()
        await #expect(throws: AnalyticsError.invalidAction("widget tap")) { try await analytics.track(action: "widget tap") }
        await #expect(throws: AnalyticsError.self) { try await analytics.track(action: "") }
        #expect(await analytics.pendingEvents().isEmpty)
    }

    @Test func aRoutedWidgetTapRecordsWidgetTapWithItsFields() async throws {
        let analytics = try analytics()
        let taps = WidgetTapTracker(router: DeepLinkRouter(scheme: WidgetHome.scheme), analytics: analytics)
        let link = try WidgetLink(
            scheme: WidgetHome.scheme, kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders,
            target: "SO500001", campaign: WidgetCampaign(source: "widget"))
        guard case .widgetTap = try await taps.open(try link.url()) else { throw TestFailure("not a widget tap") }
        let event = try #require(await analytics.pendingEvents().first)
        #expect(event.name == "widget.tap")
        #expect(event.properties["kind"] == "orders" && event.properties["family"] == "systemMedium")
        #expect(event.properties["target"] == "SO500001" && event.properties["utm_source"] == "widget")
        let configuration = try JSONDecoder().decode(DataWidgetConfiguration.self, from: Data((event.properties["configuration"] ?? "").utf8))
        #expect(configuration == WidgetHome.orders)
        // Other routes and foreign links record nothing.
        _ = try await taps.open(try #require(URL(string: "acme://oauth/callback?code=c&state=s")))
        await #expect(throws: DeepLinkError.self) { try await taps.open(try #require(URL(string: "evil://widget/orders?family=systemSmall"))) }
        #expect(await analytics.pendingEvents().count == 1)
    }
}

/// A token provider with one fixed token.
struct StaticToken: AccessTokenProvider {
    func accessToken() async throws(AuthError) -> String { "at_host" }
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String { "at_host" }
}

/// A fake `POST /v1/events`: stores each batch's ids as the server does (once per id), or
/// fails as a test sets it to.
final class EventServer: HTTPTransport {
    private struct State {
        var accepted: [String] = []
        var batchSizes: [Int] = []
        var failuresLeft = 0
        var successesBeforeFailing: Int?
        var failStatus = 503
    }

    private let state = Locked(State())

    var acceptedIDs: [String] { state.withLock { $0.accepted } }
    var batchSizes: [Int] { state.withLock { $0.batchSizes } }

    var client: AppClient { PageServer.client(for: self) }

    /// The next `count` requests fail with `status`.
    func failNext(_ count: Int, status: Int) { state.withLock { $0.failuresLeft = count; $0.failStatus = status } }
    /// After `count` more successes, every request fails (`nil`: none does).
    func failAfter(_ count: Int?) { state.withLock { $0.successesBeforeFailing = count } }

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        struct Batch: Decodable { var events: [QueuedEvent] }
        guard let body = request.body, let batch = try? JSONDecoder().decode(Batch.self, from: body) else { return HTTPResponse(status: 400) }
        return state.withLock { state in
            if state.failuresLeft > 0 || state.successesBeforeFailing == 0 {
                state.failuresLeft = max(0, state.failuresLeft - 1)
                return HTTPResponse(status: state.failStatus)
            }
            state.successesBeforeFailing = state.successesBeforeFailing.map { $0 - 1 }
            state.batchSizes.append(batch.events.count)
            for event in batch.events where !state.accepted.contains(event.id) { state.accepted.append(event.id) }
            return HTTPResponse(status: 202)
        }
    }
}
