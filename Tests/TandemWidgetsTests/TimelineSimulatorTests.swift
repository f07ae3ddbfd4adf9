import Foundation
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

@Suite("Timeline simulator")
struct TimelineSimulatorTests {
    let berlin = OrdersConfiguration(destination: "berlin", entitySet: "open")

    @Test func atEndAsksAgainOnceTheLastEntryIsShown() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [0, 1800, 3600].map { .fresh(call + 1, at: now.addingTimeInterval($0)) }, policy: .atEnd)
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.advance(to: TestDates.at(10, 30))

        #expect(provider.timelineRequests == [TestDates.at(9), TestDates.at(10)])
        #expect(await simulator.traceLines == [
            "09:00 systemSmall reload (installed)",
            "09:00 systemSmall fresh 1 row",
            "09:30 systemSmall fresh 1 row",
            "10:00 systemSmall fresh 1 row",
            "10:00 systemSmall reload (policy)",
            "10:00 systemSmall fresh 2 rows",
            "10:30 systemSmall fresh 2 rows",
        ])
    }

    @Test func afterDateAsksAgainAtThatDate() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [.fresh(call, at: now)], policy: .after(now.addingTimeInterval(45 * 60)))
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        await simulator.install(kind: "orders", family: .systemMedium, configuration: berlin)
        await simulator.advance(to: TestDates.at(11))

        #expect(provider.timelineRequests == [TestDates.at(9), TestDates.at(9, 45), TestDates.at(10, 30)])
    }

    @Test func neverWaitsForTheHostAlone() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [.fresh(call, at: now)], policy: .never)
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let widget = await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.advance(by: 2 * 86_400)
        #expect(provider.timelineRequests == [TestDates.at(9)])
        #expect(await simulator.nextReloadDate(of: widget) == nil)

        await simulator.reloadTimelines(ofKind: "orders")
        #expect(provider.timelineRequests == [TestDates.at(9), TestDates.at(9, days: 2)])
        #expect(await simulator.displayedEntry(of: widget)?.content.rows.count == 1)
    }

    @Test func aSpentBudgetKeepsTheLastTimelineUntilTheNextDay() async {
        let clock = VirtualClock(TestDates.at(22))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [.fresh(call + 1, at: now)], policy: .after(now.addingTimeInterval(10 * 60)))
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock, dailyReloadBudget: 3)
        let widget = await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.advance(to: TestDates.at(23, 59))

        #expect(provider.timelineRequests == [TestDates.at(22), TestDates.at(22, 10), TestDates.at(22, 20)])
        #expect(await simulator.displayedEntry(of: widget)?.content.rows.count == 3)
        #expect(await simulator.traceLines.suffix(2) == [
            "22:20 systemSmall fresh 3 rows",
            "22:30 systemSmall reload declined: budget spent (policy)",
        ])

        await simulator.reloadAllTimelines()
        #expect(provider.timelineRequests.count == 3, "a host reload is refused too once the budget is spent")
        #expect(await simulator.traceLines.last == "23:59 systemSmall reload declined: budget spent (host)")

        await simulator.advance(to: TestDates.at(0, 5, days: 1))
        #expect(provider.timelineRequests.last == TestDates.at(0, days: 1))
        #expect(await simulator.displayedEntry(of: widget)?.content.rows.count == 4)
    }

    @Test func hostReloadsReachOnlyTheKindAsked() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [.fresh(call, at: now)], policy: .never)
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let orders = await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        let stock = await simulator.install(kind: "stock", family: .systemLarge, configuration: berlin)
        await simulator.advance(to: TestDates.at(10))

        await simulator.reloadTimelines(ofKind: "stock")
        #expect(provider.timelineRequests.count == 3)
        #expect(await simulator.displayedEntry(of: orders)?.content.rows.count == 0)
        #expect(await simulator.displayedEntry(of: stock)?.content.rows.count == 2)

        await simulator.reloadAllTimelines()
        #expect(provider.timelineRequests.count == 5)
    }

    @Test func reloadsWhileTheHostIsInTheForegroundCostNoBudget() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            Timeline(entries: [.fresh(call, at: now)], policy: .never)
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock, dailyReloadBudget: 2)
        await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)

        await simulator.setHostInForeground(true)
        for _ in 0..<5 { await simulator.reloadTimelines(ofKind: "orders") }
        #expect(provider.timelineRequests.count == 6)
        #expect(await simulator.traceLines.contains("09:00 systemSmall reload (host, foreground: not counted)"))

        await simulator.setHostInForeground(false)
        await simulator.reloadTimelines(ofKind: "orders")
        await simulator.reloadTimelines(ofKind: "orders")
        #expect(provider.timelineRequests.count == 7, "install and one background reload spend the budget of 2")
    }

    @Test func staleShowsItsAgeThenFreshAfterTheHostsBackgroundRun() async {
        let clock = VirtualClock(TestDates.at(9))
        let backend = FakeSnapshotSource(fetchedAt: TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, _ in backend.timeline(now: now) }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.advance(to: TestDates.at(11, 11))

        // The host's background task fetches new rows at 11:12 and asks for a reload.
        await simulator.advance(to: TestDates.at(11, 12))
        backend.fetched(at: clock.now)
        await simulator.reloadTimelines(ofKind: "orders")

        #expect(await simulator.traceLines == [
            "09:00 systemSmall reload (installed)",
            "09:00 systemSmall fresh 12 rows",
            "11:10 systemSmall stale 2 h",
            "11:12 systemSmall reload (host)",
            "11:12 systemSmall fresh 12 rows",
        ])
        let shown = await simulator.trace.compactMap(\.displayedEntry).map(\.content.state)
        #expect(shown == [.fresh, .stale(age: 2 * 3_600 + 600), .fresh])
    }

    @Test func aTimelineThatStartsLaterKeepsTheCurrentEntryUntilThen() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, call in
            let start = call == 0 ? now : now.addingTimeInterval(3_600)
            return Timeline(entries: [.fresh(call + 1, at: start)], policy: .never)
        }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let widget = await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.reloadAllTimelines()
        #expect(await simulator.displayedEntry(of: widget)?.content.rows.count == 1)
        await simulator.advance(to: TestDates.at(10))
        #expect(await simulator.displayedEntry(of: widget)?.content.rows.count == 2)
    }

    @Test func eachInstanceIsAskedWithItsOwnConfigurationAndFamily() async {
        let clock = VirtualClock(TestDates.at(9))
        let provider = ScriptedProvider(clock: clock) { _, now, _ in Timeline(entries: [.fresh(1, at: now)], policy: .never) }
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let hamburg = OrdersConfiguration(destination: "hamburg", entitySet: "returns")
        await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
        await simulator.install(kind: "orders", family: .systemSmall, configuration: hamburg)
        await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)

        #expect(provider.requestedConfigurations == [berlin, hamburg])
        #expect(await simulator.instances.count == 2)
    }
}
