import Foundation
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// Direct mode: the widget fetches with the extensions' own grant (a fake server answers).
@Suite struct DataWidgetDirectModeTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let server = PageServer()
    let context = WidgetContext(family: .systemMedium)

    init() throws {
        home = try WidgetHome()
        try home.signIn(at: clock.now)
    }

    func provider() -> DataWidgetProvider {
        home.provider(clock: clock, mode: .direct(server.client), schedule: DataWidgetSchedule(freshness: 10 * 60))
    }

    func saveGrant() throws {
        let grant = TokenSet(accessToken: "at_widget", refreshToken: "tdr_widget", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")
        try SharedGrantStore(container: home.container, share: home.share).save(grant)
    }

    @Test func aDirectFetchShowsFreshRowsAndWritesTheSnapshotForEveryInstance() async throws {
        try saveGrant()
        let timeline = await provider().timeline(for: WidgetHome.orders, in: context)
        #expect(timeline.entries.first?.content.state == .fresh)
        #expect(timeline.entries.first?.content.rows.count == 3)
        #expect(timeline.policy == .after(TestDates.at(9, 10)))
        let request = try #require(server.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/destinations/sales/SalesOrders?limit=3")
        #expect(request.headers["Authorization"] == "Bearer at_widget")
        let reading = try #require(try home.container.snapshots.read(kind: EntitySetKey.kind, key: WidgetHome.orders.entitySetKey, using: home.share, now: clock.now))
        #expect(reading.freshness == .fresh)
        #expect(try home.requestedKeys().isEmpty)
        // A second instance (another process) reads the snapshot without fetching.
        _ = await provider().timeline(for: WidgetHome.orders, in: WidgetContext(family: .systemSmall))
        #expect(server.requests.count == 1)
    }

    @Test func aGrantBoundToTheWidgetsKeyIsUsedWithTheKeyFromTheCredentials() async throws {
        // The host made the widgets' key in the shared storage and bound their grant to it.
        let shared = try FileSecretStorage(directory: home.directory.url.appendingPathComponent("shared-secrets"))
        _ = try DPoPKeyStore.widgets(in: shared).key()
        home.credentials.set(.available(WidgetCredentials(
            share: home.share, sealingKey: home.sealingKey, dpopKey: DPoPKeyStore.widgets(in: shared, makesMissingKey: false))))
        let grant = TokenSet(
            accessToken: "at_widget", refreshToken: "tdr_widget", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read",
            tokenType: TokenSet.dpopTokenType)
        try SharedGrantStore(container: home.container, share: home.share).save(grant)
        let timeline = await provider().timeline(for: WidgetHome.orders, in: context)
        #expect(timeline.entries.first?.content.state == .fresh)
        let request = try #require(server.requests.first)
        #expect(request.headers["Authorization"] == "DPoP at_widget")
        #expect(request.headers["DPoP"]?.split(separator: ".").count == 3, "a proof of the request goes with it")
    }

    @Test("a widget updated by push fetches its fresh rows again on a reload once they are older than its revalidation; a failed look keeps them")
    func revalidationFetchesFreshRowsAgain() async throws {
        try saveGrant()
        let provider = home.provider(clock: clock, mode: .direct(server.client), schedule: DataWidgetSchedule(freshness: 10 * 60, revalidation: 60))
        _ = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(server.requests.count == 1)
        clock.advance(by: 30)
        _ = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(server.requests.count == 1, "rows 30 s old: no look")
        clock.advance(by: 40)
        let again = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(server.requests.count == 2, "rows 70 s old: WidgetKit's reload may be a push's, so it looks")
        #expect(again.entries.first?.content.state == .fresh)

        server.answerWith(.failure(.transport("connection refused")))
        clock.advance(by: 120)
        let kept = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(server.requests.count == 3)
        #expect(kept.entries.first?.content.state == .fresh, "the server down: the rows, still fresh, stay")
        #expect(kept.entries.first?.content.rows.count == 3)

        let plain = self.provider()
        clock.advance(by: 120)
        _ = await plain.timeline(for: WidgetHome.orders, in: context)
        #expect(server.requests.count == 3, "without revalidation, fresh rows are shown until they expire")
    }

    @Test func withoutAGrantWhileTheHostIsSignedInTheWidgetSaysOpenTheApp() async throws {
        let timeline = await provider().timeline(for: WidgetHome.orders, in: context)
        guard case .reauthRequired? = timeline.entries.first?.content.state else { throw TestFailure("expected reauth required") }
        #expect(timeline.policy == .never)
        #expect(server.requests.isEmpty)
    }

    @Test func aServerThatIsDownKeepsTheLastRowsAsStaleAndRetriesLater() async throws {
        try saveGrant()
        let provider = provider()
        _ = await provider.timeline(for: WidgetHome.orders, in: context)
        server.answerWith(.failure(.transport("connection refused")))
        clock.advance(by: 30 * 60)
        let timeline = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(timeline.entries.first?.content.state == .stale(age: 30 * 60))
        #expect(timeline.entries.first?.content.rows.count == 3)
        #expect(timeline.policy == .after(TestDates.at(9, 45)))
    }

    @Test func aPageThatDoesNotDecodeIsNotWrittenAndIsRetried() async throws {
        try saveGrant()
        server.answerWith(.success(HTTPResponse(status: 200, body: Data("[1,2,3]".utf8))))
        let timeline = await provider().timeline(for: WidgetHome.orders, in: context)
        #expect(timeline.entries.first?.content.state == .unavailable)
        #expect(try home.files(in: "snapshots").isEmpty)
        #expect(home.log.logged("does not decode"))
    }
}

/// A fake business-data server: answers every request with a page of three orders, or with
/// what a test sets, and records the requests.
final class PageServer: HTTPTransport {
    private let answer = Locked<Result<HTTPResponse, AuthError>>(.success(HTTPResponse(status: 200, headers: ["ETag": "\"v1\""], body: Pages.orders(3))))
    private let seen = Locked<[HTTPRequest]>([])

    var requests: [HTTPRequest] { seen.withLock { $0 } }

    var client: AppClient { Self.client(for: self) }

    /// The app's clients for `https://api.test`, sending through `transport`.
    static func client(for transport: any HTTPTransport) -> AppClient {
        let configuration = ClientConfiguration(
            serverURL: URL(string: "https://api.test")!, clientID: "tandem-demo",
            redirectURI: URL(string: "acme://oauth/callback")!, urlScheme: WidgetHome.scheme)
        return AppClient(configuration: configuration, role: "widget", appVersion: "1.0", transport: transport)
    }

    func answerWith(_ result: Result<HTTPResponse, AuthError>) {
        answer.withLock { $0 = result }
    }

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        seen.withLock { $0.append(request) }
        return try answer.withLock { $0 }.get()
    }
}
