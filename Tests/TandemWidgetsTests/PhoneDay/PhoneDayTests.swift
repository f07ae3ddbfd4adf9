import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// The phone day's rules, played against the real brokered widget (`DataWidgetProvider` over a
/// real container) and a host that answers its requests from an in-memory server. The real
/// server and the real host flows are `tandem simulate day`'s (TandemCLITests).
@Suite struct PhoneDayTests {
    let home: WidgetHome
    let midnight = TestDates.at(0)

    init() throws { home = try WidgetHome() }

    /// Plays a day of `settings` (from the defaults) for the brokered app; each data change
    /// pushes one push of each of `pushes` to it, delivered at once.
    func play(
        pushing pushes: [PhoneDayPush.Kind] = [], _ change: (inout PhoneDaySettings) -> Void = { _ in }
    ) async throws -> (PhoneDayModeReport, BrokeredApp) {
        var settings = PhoneDaySettings(start: midnight)
        change(&settings)
        let clock = VirtualClock(midnight.addingTimeInterval(-3_600))
        try home.signIn(at: clock.now)
        let lock = DeviceLock()
        let app = BrokeredApp(home: home, clock: clock, lock: lock)
        let day = try PhoneDay(settings: settings, clock: clock, deviceLock: lock)
        let owed = Locked<[PhoneDayPush]>([])
        let report = await day.run(modes: [PhoneDayMode(name: "brokered", app: app)]) { version in
            app.server.withLock { $0 = version }
            owed.withLock { $0 += pushes.map { PhoneDayPush(mode: "brokered", kind: $0) } }
        } sendPushes: {
            owed.withLock { owed in
                defer { owed.removeAll() }
                return owed
            }
        }
        return (try #require(report.modes.first), app)
    }

    @Test func theOneShotSchedulerLeavesTheWidgetStaleAfterItsFirstRun() async throws {
        let (report, _) = try await play {
            $0.appOpens = [9 * 3_600]
            $0.refreshPolicy = .oneShot
        }
        let afterNine = report.backgroundRuns.filter { $0.date > TestDates.at(9) }
        #expect(afterNine.count == 1)
        // After that run the widget never catches up: at the end of the day it is hours behind.
        #expect(report.samples.last.map { $0.staleness > 8 * 3_600 } == true, "\(report.samples.last.map(\.staleness) ?? 0)")
        #expect(report.p95Staleness > 2 * 3_600)
    }

    @Test func theResubmittingSchedulerKeepsTheWidgetWithinTwoHours() async throws {
        let (report, _) = try await play {
            $0.appOpens = [9 * 3_600]
            $0.refreshPolicy = .resubmitting
        }
        #expect(report.backgroundRuns.filter { $0.date > TestDates.at(9) }.count > 8)
        #expect(report.p95Staleness < 2 * 3_600, "p95 \(report.p95Staleness)")
        #expect(report.reloadsUsed <= 40 && report.declinedReloads == 0, "\(report.reloadsUsed) reloads")
    }

    @Test(arguments: [false, true])
    func withoutBackgroundRefreshTheHostNeverRunsInTheBackground(lowPowerMode: Bool) async throws {
        let (report, _) = try await play {
            if lowPowerMode { $0.lowPowerMode = true } else { $0.backgroundAppRefresh = false }
        }
        #expect(report.backgroundRuns.isEmpty)
        #expect(report.refusedRequests > 0)
    }

    @Test func aForceQuitAppGetsNoBackgroundTimeUntilItIsOpenedAgain() async throws {
        let (report, _) = try await play {
            $0.appOpens = [9 * 3_600, 15 * 3_600]
            $0.forceQuit = true
        }
        // Before the first use the app was not force-quit: it ran. Swiped away after each use
        // from 9:00 on, it never runs in the background again, its request left pending.
        #expect(report.backgroundRuns.contains { $0.date < TestDates.at(9) })
        #expect(!report.backgroundRuns.contains { $0.date > TestDates.at(9) })
    }

    @Test func beforeTheFirstUnlockTheHostsRunsFail() async throws {
        let (report, _) = try await play {
            $0.appOpens = []
            $0.firstUnlock = 7 * 3_600
        }
        let early = report.backgroundRuns.filter { $0.date < TestDates.at(7) }
        let late = report.backgroundRuns.filter { $0.date > TestDates.at(7) }
        #expect(!early.isEmpty && early.allSatisfy { !$0.succeeded })
        #expect(!late.isEmpty && late.allSatisfy(\.succeeded))
    }

    @Test func everyReloadLaunchesANewWidgetProcess() async throws {
        let (report, app) = try await play()
        // The day's reloads, plus the one that placed the widget before the day.
        #expect(app.launches.withLock { $0 } == report.reloads.count + 1)
        #expect(report.reloads.count > 10)
    }

    @Test func theTableAndTheChartShowEachMode() async throws {
        let (mode, _) = try await play()
        let report = PhoneDayReport(settings: PhoneDaySettings(start: midnight), dataChanges: [TestDates.at(8)], modes: [mode])
        #expect(report.table.hasPrefix("mode") && report.table.contains("\nbrokered"))
        let svg = PhoneDayChart().svg(report)
        #expect(svg.hasPrefix("<svg") && svg.contains("brokered") && svg.contains("<circle") && svg.contains("<path"))
    }

    @Test func widgetPushesBeyondTheDailyBudgetAreDropped() async throws {
        let (report, _) = try await play(pushing: [.widgets]) {
            $0.appOpens = []
            $0.widgetPushBudget = 5
        }
        // 21 data changes, one WidgetKit push each: five reload the widget, the rest are dropped.
        #expect(report.pushes.count == 21)
        #expect(report.pushes(.applied) == 5 && report.pushes(.overBudget) == 16)
        #expect(report.widgetPushesUsed(from: midnight) == 5)
        let pushReloads = Set(report.pushes.filter { $0.outcome == .applied }.map(\.date))
        #expect(pushReloads.allSatisfy { date in report.reloads.contains { $0.date == date && $0.counted } }, "each applied push is a counted reload")
    }

    @Test func backgroundPushesAreThrottledPerHour() async throws {
        let (report, _) = try await play(pushing: [.background]) {
            $0.appOpens = []
            $0.dataChanges = Array(stride(from: 8 * 3_600, through: 12 * 3_600, by: 10 * 60))
        }
        // Six changes an hour, two background pushes an hour let through.
        #expect(report.pushes.count == 25)
        #expect(report.backgroundPushesInBusiestHour == 2)
        #expect(report.pushes(.applied) == 9 && report.pushes(.overBudget) == 16, "\(report.pushes.map(\.outcome))")
    }

    @Test(arguments: [false, true])
    func backgroundPushesDoNotLaunchAnAppWithoutBackgroundRefreshOrForceQuit(forceQuit: Bool) async throws {
        let (report, _) = try await play(pushing: [.background]) {
            $0.appOpens = [7 * 3_600]
            if forceQuit { $0.forceQuit = true } else { $0.backgroundAppRefresh = false }
        }
        #expect(report.pushes.count == 21)
        #expect(report.pushes(.notDelivered) == 21 && report.pushes(.applied) == 0)
    }

    @Test func badSettingsAreRefused() throws {
        var settings = PhoneDaySettings(start: midnight)
        settings.appOpens = [25 * 3_600]
        #expect(throws: PhoneDayError.invalidSetting("app opens fall within the day")) { try settings.validate() }
        settings = PhoneDaySettings(start: midnight)
        settings.backgroundPushesPerHour = -1
        #expect(throws: PhoneDayError.invalidSetting("background pushes are 0 to 60 an hour")) { try settings.validate() }
        settings = PhoneDaySettings(start: midnight)
        #expect(throws: PhoneDayError.self) { try PhoneDay(settings: settings, clock: VirtualClock(TestDates.at(1)), deviceLock: DeviceLock()) }
    }
}

/// A brokered app whose host answers the widget's requests with the in-memory ``server``'s
/// version and reloads the widgets, as the background flow's fulfilment does.
struct BrokeredApp: PhoneDayApp {
    let home: WidgetHome
    let clock: VirtualClock
    let lock: DeviceLock
    let server = Locked(0)
    let launches = Locked(0)

    var widgets: [WidgetInstance<DataWidgetConfiguration>] {
        [WidgetInstance(kind: WidgetHome.kind, family: .systemMedium, configuration: WidgetHome.orders)]
    }

    func open(widgets: WidgetReloads) async -> Bool { true }

    func backgroundRun(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool {
        guard protectedDataAvailable else { return false }
        let version = server.withLock { $0 }
        guard let answered = try? home.fulfilRequests(with: Pages.versioned(version), at: clock.now) else { return false }
        if answered > 0 { await widgets.reloadAllTimelines() }
        return true
    }

    func widgetProcess() -> DataWidgetProvider {
        launches.withLock { $0 += 1 }
        return home.provider(clock: clock)
    }

    func version(shownBy entry: WidgetContentEntry) -> Int? {
        entry.content.rows.first.flatMap { Int($0.value.replacingOccurrences(of: "version ", with: "")) }
    }
}
