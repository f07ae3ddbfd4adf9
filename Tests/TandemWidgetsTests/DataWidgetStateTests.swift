import Foundation
import TandemHost
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// The business widget's entries, one timeline at a time, against a real shared container.
@Suite struct DataWidgetStateTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let context = WidgetContext(family: .systemMedium)

    init() throws { home = try WidgetHome() }

    func timeline(_ configuration: DataWidgetConfiguration = WidgetHome.orders, provider: DataWidgetProvider? = nil) async -> Timeline<WidgetContentEntry> {
        await (provider ?? home.provider(clock: clock)).timeline(for: configuration, in: context)
    }

    @Test func signedOutShowsASignInLinkNoRowsAndWaitsForTheHost() async throws {
        let timeline = await timeline()
        let content = try #require(timeline.entries.first).content
        #expect(content.state == .signedOut && content.rows.isEmpty && content.footer == "open the app to sign in")
        #expect(timeline.policy == .never)
        let route = try DeepLinkRouter(scheme: WidgetHome.scheme).route(try #require(content.primaryLink))
        guard case .widgetTap(let kind, let family, let configuration, let target, _) = route else { throw TestFailure("not a widget tap") }
        #expect(kind == WidgetHome.kind && family == .systemMedium && target == "sign-in")
        #expect(try configuration.decode(as: DataWidgetConfiguration.self) == WidgetHome.orders)
        #expect(try home.requestedKeys().isEmpty)
    }

    @Test func reauthRequiredShowsOpenTheAppWithTheReason() async throws {
        try home.container.setStatus(SessionStatus(state: .reauthRequired, reason: "the session expired"))
        let timeline = await timeline()
        let content = try #require(timeline.entries.first).content
        #expect(content.state == .reauthRequired(reason: "the session expired"))
        #expect(content.footer == "open the app: the session expired" && content.rows.isEmpty)
        #expect(timeline.policy == .never)
    }

    @Test func aFreshSnapshotShowsItsRowsThenTurnsStaleAtItsExpiry() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now.addingTimeInterval(-5 * 60))
        let timeline = await timeline()
        // Fetched at 8:55, fresh for the default 40 minutes (the host's snapshot lives an hour).
        #expect(timeline.entries.map(\.content.state) == [.fresh, .stale(age: 40 * 60)])
        #expect(timeline.entries.map(\.date) == [clock.now, TestDates.at(9, 35)])
        #expect(timeline.policy == .after(TestDates.at(9, 35)))
        let rows = try #require(timeline.entries.first).content.rows
        #expect(rows.map(\.key) == ["SO500001", "SO500002", "SO500003"])
        #expect(rows.map(\.value) == ["Alpine Logistics", "Blue Harbor Retail", "Cedar Foods"])
        #expect(rows.allSatisfy { $0.link != nil })
        #expect(try home.requestedKeys().isEmpty)
    }

    @Test func theFreshnessIntervalCanExpireRowsBeforeTheHostsExpiry() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        let provider = home.provider(clock: clock, schedule: DataWidgetSchedule(freshness: 5 * 60))
        #expect(await timeline(provider: provider).policy == .after(TestDates.at(9, 5)))
    }

    @Test func aMissingSnapshotRequestsTheRowsAndWaitsForTheHostsReload() async throws {
        try home.signIn(at: clock.now)
        let first = await timeline()
        let content = try #require(first.entries.first).content
        #expect(content.state == .unavailable && content.rows.isEmpty && content.footer == "waiting for the app to update")
        // By default no reload is asked for: the host reloads the widgets when it answers.
        #expect(first.policy == .never)
        #expect(try home.requestedKeys() == [WidgetHome.orders.entitySetKey])
    }

    @Test func aRequestReloadLooksAgainSoonerThenLaterUpToTheMaximum() async throws {
        try home.signIn(at: clock.now)
        let schedule = DataWidgetSchedule(requestReload: 15 * 60)
        // The host does not answer: each look waits twice as long, up to 2 hours, even in a new
        // process each time (iOS discards the widget's; the count is in the sealed request).
        let looks = [TestDates.at(9, 15), TestDates.at(9, 45), TestDates.at(10, 45), TestDates.at(12, 45), TestDates.at(14, 45)]
        for look in looks {
            #expect(await timeline(provider: home.provider(clock: clock, schedule: schedule)).policy == .after(look))
            clock.set(look)
        }
        // The host answers and completes the request: the next request starts again at 15 min.
        try home.fulfilRequests(at: clock.now)
        clock.advance(by: 2 * 60 * 60)
        #expect(await timeline(provider: home.provider(clock: clock, schedule: schedule)).policy == .after(TestDates.at(17, 0)))
    }

    @Test(arguments: [BackgroundRefresh.off, .lowPowerMode])
    func withoutBackgroundTimeTheWidgetSaysOpenTheApp(availability: BackgroundRefresh) async throws {
        try home.signIn(at: clock.now)
        try home.container.setBackgroundRefresh(availability)
        let first = await timeline()
        let content = try #require(first.entries.first).content
        #expect(content.state == .unavailable && content.footer == "open the app to update")
        // It still asks (the app answers when opened), but looks again only after two hours.
        #expect(try home.requestedKeys() == [WidgetHome.orders.entitySetKey])
        #expect(first.policy == .after(TestDates.at(11)))

        // With rows from earlier, it shows them with their age and the same advice.
        try home.writeSnapshot(at: TestDates.at(7))
        let stale = try #require(await timeline().entries.first).content
        #expect(stale.rows.count == 3 && stale.footer == "updated 2 h ago · open the app to update")

        // Background refresh back on: the widget waits for the host again.
        try home.container.setBackgroundRefresh(.available)
        #expect(await timeline().policy != .after(TestDates.at(11)))
    }

    @Test(arguments: [WidgetFamily.systemMedium, .systemLarge, .accessoryRectangular])
    func aTimelineHoldsOnlyTheRowsItsFamilyShows(family: WidgetFamily) async throws {
        // A configuration asking for 40 rows, as many as the server's page holds.
        let many = DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders", limit: 40)
        try home.signIn(at: clock.now)
        try home.writeSnapshot(Pages.orders(40), for: many, at: clock.now)
        let timeline = await home.provider(clock: clock).timeline(for: many, in: WidgetContext(family: family))
        for entry in timeline.entries {
            #expect(entry.content.rows.count == family.rowCapacity, "\(family): \(entry.content.rows.count) rows")
            #expect(entry.content.rows.allSatisfy { $0.link != nil })
        }
    }

    @Test func aStaleSnapshotShowsItsAgeAndAsksTheHost() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: TestDates.at(7))
        let timeline = await timeline()
        let content = try #require(timeline.entries.first).content
        #expect(content.state == .stale(age: 2 * 3_600) && content.footer == "updated 2 h ago" && content.rows.count == 3)
        // Waiting for the host's reload, the rows age hour by hour without one.
        #expect(timeline.policy == .never)
        #expect(timeline.entries.dropFirst().first?.date == TestDates.at(10) && timeline.entries.last?.content.footer == "updated 1 d ago")
        #expect(try home.requestedKeys() == [WidgetHome.orders.entitySetKey])
    }

    @Test func aLockedDeviceKeepsTheLastRowsMarkedUnavailable() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        let provider = home.provider(clock: clock)
        _ = await timeline(provider: provider)
        home.credentials.set(.locked)
        clock.advance(by: 3_600)
        let timeline = await timeline(provider: provider)
        let content = try #require(timeline.entries.first).content
        #expect(content.state == .unavailable && content.rows.count == 3 && content.footer == "unlock to update")
        #expect(timeline.policy == .after(TestDates.at(10, 15)))
    }

    @Test func withoutExtensionAccessASignedInWidgetSaysOpenTheApp() async throws {
        try home.signIn(at: clock.now)
        home.credentials.set(.none)
        let content = try #require(await timeline().entries.first).content
        #expect(content.state == .reauthRequired(reason: "open the app to connect the widget"))
    }

    @Test func aDamagedStatusIsUnavailableNeverSignedOut() async throws {
        try Data("{not json".utf8).write(to: home.container.directory.appendingPathComponent("status"))
        let timeline = await timeline()
        #expect(timeline.entries.first?.content.state == .unavailable)
        #expect(home.log.logged("status"))
    }

    @Test(arguments: ["damaged", "foreign", "undecodable"])
    func anUntrustworthySnapshotBecomesARequestNotACrash(_ damage: String) async throws {
        try home.signIn(at: clock.now)
        switch damage {
        case "damaged":
            try home.writeSnapshot(at: clock.now)
            for file in try home.files(in: "snapshots") { try Data("garbage".utf8).write(to: file) }
        case "foreign":
            try home.writeSnapshot(at: clock.now, share: try WidgetHome.share(fill: 9))
        default:
            try home.writeSnapshot(Data("<html>not a page</html>".utf8), at: clock.now)
        }
        let timeline = await timeline()
        #expect(timeline.entries.first?.content.state == .unavailable)
        // A request like any other: answered by the host, which then reloads the widget.
        #expect(timeline.policy == .never)
        #expect(try home.requestedKeys() == [WidgetHome.orders.entitySetKey])
    }

    @Test func previewsAndPlaceholdersShowSampleRowsWithoutReadingAnything() async throws {
        let provider = home.provider(clock: clock)
        #expect(provider.placeholder(in: context).content == DataWidgetProvider.sampleContent)
        let preview = await provider.snapshot(for: WidgetHome.orders, in: WidgetContext(family: .systemSmall, isPreview: true))
        #expect(preview.content == DataWidgetProvider.sampleContent)
    }

    @Test func aTransientSnapshotShowsTheContainerButWritesNoRequest() async throws {
        try home.signIn(at: clock.now)
        let entry = await home.provider(clock: clock).snapshot(for: WidgetHome.orders, in: context)
        #expect(entry.content.state == .unavailable)
        #expect(try home.requestedKeys().isEmpty)
        try home.writeSnapshot(at: clock.now)
        #expect(await home.provider(clock: clock).snapshot(for: WidgetHome.orders, in: context).content.state == .fresh)
    }
}

/// A test that cannot go on, with why.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
