import Foundation
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// A direct-mode widget that WidgetKit pushes reach spends its budget once: it asks only for a
/// safety-net reload, and polls again when pushes stop or the host withdraws the registration.
/// Each reload runs in a new provider, as iOS discards the widget's process between reloads.
@Suite struct DataWidgetPushPacingTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let server = PageServer()
    let context = WidgetContext(family: .systemMedium)
    /// The defaults (fresh 40 min, safety net 6 h), revalidating on a reload after a minute.
    let schedule = DataWidgetSchedule(revalidation: 60)

    init() throws {
        home = try WidgetHome()
        try home.signIn(at: clock.now)
        let grant = TokenSet(accessToken: "at_widget", refreshToken: "tdr_widget", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")
        try SharedGrantStore(container: home.container, share: home.share).save(grant)
    }

    /// A reload at `date`, in a new process.
    func reload(at date: Date, mode: DataWidgetMode? = nil) async -> Timeline<WidgetContentEntry> {
        clock.set(date)
        return await home.provider(clock: clock, mode: mode ?? .direct(server.client), schedule: schedule).timeline(for: WidgetHome.orders, in: context)
    }

    func registerPushes(at date: Date) throws {
        try home.container.widgetPushStatus.write(WidgetPushStatus(registeredAt: date), sealingKey: home.sealingKey)
    }

    @Test func aPushedWidgetAsksOnlyForTheSafetyNetAndKeepsItsRowsFreshUntilThen() async throws {
        try registerPushes(at: TestDates.at(8, 55))
        let timeline = await reload(at: TestDates.at(9))
        #expect(timeline.policy == .after(TestDates.at(15)))
        #expect(timeline.entries.map(\.date) == [TestDates.at(9), TestDates.at(15)], "no entry marks the rows stale at 9:40")
        #expect(timeline.entries.first?.content.state == .fresh)
        #expect(server.requests.count == 1)
    }

    @Test func withoutAPushStatusTheWidgetPollsAsItAlwaysHas() async throws {
        let timeline = await reload(at: TestDates.at(9))
        #expect(timeline.policy == .after(TestDates.at(9, 40)))
        #expect(timeline.entries.map(\.date) == [TestDates.at(9), TestDates.at(9, 40)])
        #expect(try pacingFiles().isEmpty, "a widget without pushes keeps no record")
    }

    @Test func aPushKeepsTheWidgetPushedAndQuietForTheSafetyNetReturnsItToPolling() async throws {
        try registerPushes(at: TestDates.at(9))
        #expect(await reload(at: TestDates.at(9)).policy == .after(TestDates.at(15)))
        // A push at 10:00, long before 15:00: the widget fetches (its rows are older than the
        // revalidation) and waits for the next push, or the safety net.
        let pushed = await reload(at: TestDates.at(10))
        #expect(server.requests.count == 2)
        #expect(pushed.policy == .after(TestDates.at(16)))
        // Nothing came since 10:00: at 16:00 it polls again, on its freshness.
        #expect(await reload(at: TestDates.at(16)).policy == .after(TestDates.at(16, 40)))
        #expect(await reload(at: TestDates.at(16, 40)).policy == .after(TestDates.at(17, 20)))
        // A push while it polls (17:00, before the 17:20 it asked for) makes it pushed again.
        #expect(await reload(at: TestDates.at(17)).policy == .after(TestDates.at(23)))
    }

    @Test func aReloadLessThanAMinuteEarlyIsTheWidgetsOwn() async throws {
        try registerPushes(at: TestDates.at(9))
        _ = await reload(at: TestDates.at(9))
        // At 14:59:30 (WidgetKit's reload, a little early): not a push; quiet since 9:00, under 6 h.
        #expect(await reload(at: TestDates.at(14, 59).addingTimeInterval(30)).policy == .after(TestDates.at(20, 59).addingTimeInterval(30)))
        // The next one, on time at 20:59:30: nothing heard since the registration at 9:00 → polling.
        let late = TestDates.at(20, 59).addingTimeInterval(30)
        #expect(await reload(at: late).policy == .after(late.addingTimeInterval(40 * 60)))
    }

    @Test func aWithdrawnRegistrationReturnsTheWidgetToPolling() async throws {
        try registerPushes(at: TestDates.at(9))
        #expect(await reload(at: TestDates.at(9)).policy == .after(TestDates.at(15)))
        try home.container.widgetPushStatus.remove()
        let timeline = await reload(at: TestDates.at(10))
        #expect(timeline.policy == .after(TestDates.at(10, 40)))
        #expect(timeline.entries.map(\.date) == [TestDates.at(10), TestDates.at(10, 40)])
    }

    @Test func aForgedOrGarbledPushStatusIsNoStatus() async throws {
        let stranger = try SharedSealingKey.provision(in: FileSecretStorage(directory: home.directory.url.appendingPathComponent("stranger")))
        try home.container.widgetPushStatus.write(WidgetPushStatus(registeredAt: TestDates.at(9)), sealingKey: stranger)
        #expect(await reload(at: TestDates.at(9)).policy == .after(TestDates.at(9, 40)), "sealed under another key")

        for garbage in [Data(), Data("{\"registeredAt\":0}".utf8), Data(repeating: 0xFF, count: 4_096)] {
            try garbage.write(to: home.container.directory.appendingPathComponent("widget-push-status"))
            let timeline = await reload(at: clock.now.addingTimeInterval(40 * 60))
            #expect(timeline.policy == .after(clock.now.addingTimeInterval(40 * 60)))
            #expect(timeline.entries.first?.content.state == .fresh)
        }
        #expect(home.log.logged("push status"))
    }

    @Test func aForgedOrGarbledPacingRecordIsNoRecord() async throws {
        try registerPushes(at: TestDates.at(9))
        _ = await reload(at: TestDates.at(9))
        let file = try #require(try pacingFiles().first)
        // A garbled record is as none: not a push, and quiet since the registration.
        for garbage in [Data(), Data("{\"scheduledReloadAt\":null,\"lastExternalReloadAt\":1e300}".utf8), Data(repeating: 0x41, count: 100_000)] {
            try garbage.write(to: file)
            #expect(await reload(at: TestDates.at(9, 30)).policy == .after(TestDates.at(15, 30)))
        }
        try Data().write(to: file)
        #expect(await reload(at: TestDates.at(15, 30)).policy == .after(TestDates.at(16, 10)), "quiet since 9:00: polling")
        #expect(home.log.logged("reload pacing"))
    }

    @Test func aBrokeredWidgetKeepsItsScheduleWhateverTheStatus() async throws {
        try registerPushes(at: TestDates.at(9))
        try home.writeSnapshot(at: TestDates.at(9))
        let timeline = await reload(at: TestDates.at(9), mode: .brokered)
        #expect(timeline.policy == .after(TestDates.at(9, 40)))
        #expect(try pacingFiles().isEmpty)
    }

    @Test("over a day with four pushes, a pushed widget reloads 9 times where one that polls reloads 36")
    func aPushedDaySpendsAFractionOfTheBudget() async throws {
        let polling = try await reloadsInADay(pushedAt: nil)
        let pushed = try await reloadsInADay(pushedAt: [7, 9, 12, 17])
        #expect(polling.count == 36, "every 40 minutes from 0:00")
        // Registered at 0:00: the safety net at 6:00 finds it quiet and it polls (6:00, 6:40)
        // until the push at 7:00; after the last push, at 17:00, quiet again at 23:00.
        #expect(pushed == ["00:00", "06:00", "06:40", "07:00", "09:00", "12:00", "17:00", "23:00", "23:40"])
    }

    /// The times of the reloads of a direct widget over a day, registered for pushes at 0:00 and
    /// pushed at `pushedAt` (hours), or with no registration when `nil`.
    func reloadsInADay(pushedAt hours: [Int]?) async throws -> [String] {
        let home = try WidgetHome()
        let clock = VirtualClock(TestDates.at(0))
        try home.signIn(at: clock.now)
        try SharedGrantStore(container: home.container, share: home.share).save(
            TokenSet(accessToken: "at_widget", refreshToken: "tdr_widget", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read"))
        if hours != nil {
            try home.container.widgetPushStatus.write(WidgetPushStatus(registeredAt: clock.now), sealingKey: home.sealingKey)
        }
        let server = PageServer()
        let schedule = schedule
        let simulator = TimelineSimulator(
            provider: DiscardedProcessProvider { home.provider(clock: clock, mode: .direct(server.client), schedule: schedule) }, clock: clock)
        await simulator.install(kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders)
        for hour in hours ?? [] {
            await simulator.advance(to: TestDates.at(hour))
            await simulator.reloadTimelines(ofKind: WidgetHome.kind)
        }
        await simulator.advance(to: TestDates.at(23, 59))
        return await simulator.trace.filter { if case .reloaded = $0.event { true } else { false } }.map { String($0.line(in: .utcGregorian).prefix(5)) }
    }

    /// The pacing records in the container.
    func pacingFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: home.container.directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("widget-pacing-") }
    }
}
