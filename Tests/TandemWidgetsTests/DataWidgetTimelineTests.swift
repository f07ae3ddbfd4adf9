import Foundation
import TandemSharedContainer
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// The business widget under WidgetKit's rules (``TimelineSimulator``), with the host writing
/// snapshots as its background run would.
@Suite struct DataWidgetTimelineTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))

    init() throws { home = try WidgetHome() }

    func simulator() -> TimelineSimulator<DataWidgetProvider> {
        TimelineSimulator(provider: home.provider(clock: clock), clock: clock)
    }

    @Test func staleShowsItsAgeThenFreshAfterTheHostsBackgroundRun() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        let simulator = simulator()
        let widget = await simulator.install(kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders)
        await simulator.advance(to: TestDates.at(11, 10))
        let trace = await simulator.traceLines
        #expect(await simulator.displayedEntry(of: widget)?.content.footer == "updated 2 h ago", "\(trace)")
        #expect(try home.requestedKeys() == [WidgetHome.orders.entitySetKey])
        // 11:12: the host's background run answers the request and reloads the widget.
        await simulator.advance(to: TestDates.at(11, 12))
        #expect(try home.fulfilRequests(at: clock.now) == 1)
        await simulator.reloadTimelines(ofKind: WidgetHome.kind)
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .fresh)
        let lines = await simulator.traceLines
        #expect(lines.first == "09:00 systemMedium reload (installed)")
        #expect(lines.contains("09:00 systemMedium fresh 3 rows"))
        #expect(lines.contains("09:40 systemMedium stale 40 min"))
        #expect(lines.contains { $0.hasPrefix("10:") && $0.hasSuffix("stale 1 h") })
        #expect(lines.suffix(2) == ["11:12 systemMedium reload (host)", "11:12 systemMedium fresh 3 rows"])
        #expect(try home.requestedKeys().isEmpty)
    }

    @Test func aDeviceLockedPeriodNeverShowsSignedOut() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        let simulator = simulator()
        let widget = await simulator.install(kind: WidgetHome.kind, family: .systemSmall, configuration: WidgetHome.orders)
        home.credentials.set(.locked)
        await simulator.advance(to: TestDates.at(12))
        let shown = await simulator.trace.compactMap(\.displayedEntry?.content)
        #expect(!shown.contains { $0.state == .signedOut })
        #expect(shown.contains { $0.state == .unavailable && $0.rows.count == 3 })
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .unavailable)
        // Its retries widened while locked (9:40, 9:55, 10:25, 11:25, 12:25). Unlocked: at the
        // next one the widget asks the host again; its answer shows as fresh.
        #expect(await simulator.nextReloadDate(of: widget) == TestDates.at(12, 25))
        home.credentials.set(.available(WidgetCredentials(share: home.share, sealingKey: home.sealingKey)))
        await simulator.advance(by: 25 * 60)
        try home.fulfilRequests(at: clock.now)
        await simulator.reloadTimelines(ofKind: WidgetHome.kind)
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .fresh)
    }

    @Test func signedOutWaitsForTheHostsReloadAfterSignIn() async throws {
        let simulator = simulator()
        let widget = await simulator.install(kind: WidgetHome.kind, family: .systemLarge, configuration: WidgetHome.orders)
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .signedOut)
        #expect(await simulator.nextReloadDate(of: widget) == nil)
        await simulator.advance(to: TestDates.at(18))
        #expect(await simulator.trace.count == 2)
        // The host signs in, fetches, and reloads its widgets.
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        await simulator.reloadAllTimelines()
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .fresh)
        #expect(await simulator.nextReloadDate(of: widget) == TestDates.at(18, 40))
    }

    @Test func aRequestIsShownWhenTheHostReloadsTheWidget() async throws {
        try home.signIn(at: clock.now)
        let simulator = simulator()
        let widget = await simulator.install(kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders)
        // It asked the host and waits for its reload, spending no budget meanwhile.
        #expect(await simulator.nextReloadDate(of: widget) == nil)
        await simulator.advance(to: TestDates.at(10, 30))
        #expect(await simulator.trace.filter { if case .reloaded = $0.event { true } else { false } }.count == 1)
        try home.fulfilRequests(at: clock.now)
        await simulator.reloadAllTimelines()
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .fresh)
        #expect(await simulator.nextReloadDate(of: widget) == TestDates.at(11, 10))
    }

    @Test func withARequestReloadTheAnswerIsShownAtTheNextLook() async throws {
        try home.signIn(at: clock.now)
        let provider = home.provider(clock: clock, schedule: DataWidgetSchedule(requestReload: 15 * 60))
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let widget = await simulator.install(kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders)
        #expect(await simulator.nextReloadDate(of: widget) == TestDates.at(9, 15))
        try home.fulfilRequests(at: TestDates.at(9, 1))
        await simulator.advance(to: TestDates.at(9, 15))
        #expect(await simulator.displayedEntry(of: widget)?.content.state == .fresh)
        // Fetched at 9:01, fresh for 40 minutes.
        #expect(await simulator.nextReloadDate(of: widget) == TestDates.at(9, 41))
    }
}
