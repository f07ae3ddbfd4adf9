import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// Before the first unlock after a restart a widget cannot read its secrets or records: it
/// waits longer after each try (15, 30, 60, 60 minutes) instead of spending its budget every
/// 15 minutes all night, and the first reload that reads its data starts the count again.
/// Each reload runs in a new provider, as iOS discards the widget's process between reloads.
@Suite struct DataWidgetUnavailableBackoffTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(3))

    init() throws {
        home = try WidgetHome()
        try home.signIn(at: clock.now)
        home.credentials.set(.locked)
    }

    /// A reload at `date` in `family`, in a new process; the date it asks to be reloaded at.
    func reload(at date: Date, family: WidgetFamily = .systemMedium, schedule: DataWidgetSchedule = DataWidgetSchedule()) async -> Date? {
        clock.set(date)
        let timeline = await home.provider(clock: clock, schedule: schedule).timeline(for: WidgetHome.orders, in: WidgetContext(family: family))
        guard case .after(let date) = timeline.policy else { return nil }
        return date
    }

    func unlock() {
        home.credentials.set(.available(WidgetCredentials(share: home.share, sealingKey: home.sealingKey)))
    }

    @Test func theRetryDoublesUpToAnHourAndTheFirstReadStartsAgain() async throws {
        #expect(await reload(at: TestDates.at(3)) == TestDates.at(3, 15))
        #expect(await reload(at: TestDates.at(3, 15)) == TestDates.at(3, 45))
        #expect(await reload(at: TestDates.at(3, 45)) == TestDates.at(4, 45))
        #expect(await reload(at: TestDates.at(4, 45)) == TestDates.at(5, 45))
        unlock()
        try home.writeSnapshot(at: TestDates.at(5, 50))
        #expect(await reload(at: TestDates.at(5, 50)) == TestDates.at(6, 30), "fresh rows, expiring after 40 minutes")
        #expect(try backoffFiles().isEmpty)
        home.credentials.set(.locked)
        #expect(await reload(at: TestDates.at(6)) == TestDates.at(6, 15), "a new run of unavailable reloads starts at 15 minutes")
    }

    @Test func anUnreadableStatusCountsAsWellAsLockedSecrets() async throws {
        #expect(await reload(at: TestDates.at(3)) == TestDates.at(3, 15))
        unlock()
        try Data("not a status".utf8).write(to: home.container.directory.appendingPathComponent("status"))
        #expect(await reload(at: TestDates.at(3, 15)) == TestDates.at(3, 45))
    }

    @Test func eachInstanceCountsItsOwnReloads() async throws {
        #expect(await reload(at: TestDates.at(3)) == TestDates.at(3, 15))
        #expect(await reload(at: TestDates.at(3, 15)) == TestDates.at(3, 45))
        #expect(await reload(at: TestDates.at(3, 15), family: .systemSmall) == TestDates.at(3, 30))
    }

    @Test func aLookWithoutAReloadCountsNothing() async throws {
        for _ in 0..<3 {
            let entry = await home.provider(clock: clock).snapshot(for: WidgetHome.orders, in: WidgetContext(family: .systemMedium))
            #expect(entry.content.state == .unavailable)
        }
        #expect(try backoffFiles().isEmpty)
        #expect(await reload(at: TestDates.at(3)) == TestDates.at(3, 15))
    }

    @Test func theScheduleSetsTheFirstAndLongestWaits() async throws {
        let schedule = DataWidgetSchedule(retry: 10 * 60, maximumUnavailableRetry: 25 * 60)
        #expect(await reload(at: TestDates.at(3), schedule: schedule) == TestDates.at(3, 10))
        #expect(await reload(at: TestDates.at(3, 10), schedule: schedule) == TestDates.at(3, 30))
        #expect(await reload(at: TestDates.at(3, 30), schedule: schedule) == TestDates.at(3, 55))
        #expect(DataWidgetSchedule(retry: 30 * 60, maximumUnavailableRetry: 60).maximumUnavailableRetry == 30 * 60, "never below the retry")
    }

    @Test func aForgedCountOnlyMovesTheWaitBetweenTheRetryAndItsMaximum() async throws {
        #expect(await reload(at: TestDates.at(3)) == TestDates.at(3, 15))
        let file = try #require(try backoffFiles().first)
        let forgeries: [(body: String, wait: TimeInterval)] = [
            (#"{"body":{"count":1000000},"format":"tandem.shared","kind":"widget-unavailable","version":1}"#, 60 * 60),
            (#"{"body":{"count":-7},"format":"tandem.shared","kind":"widget-unavailable","version":1}"#, 15 * 60),
            (#"{"body":{"count":1e300},"format":"tandem.shared","kind":"widget-unavailable","version":1}"#, 15 * 60),
            (#"{"body":{"count":2},"format":"tandem.shared","kind":"status","version":1}"#, 15 * 60),
            ("garbage", 15 * 60),
            ("", 15 * 60),
        ]
        for forgery in forgeries {
            try Data(forgery.body.utf8).write(to: file)
            #expect(await reload(at: TestDates.at(4)) == TestDates.at(4).addingTimeInterval(forgery.wait), "\(forgery.body)")
        }
        // A directory in its place: nothing to read, and the count cannot be written, so 15 minutes.
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(await reload(at: TestDates.at(5)) == TestDates.at(5, 15))
        #expect(await reload(at: TestDates.at(5, 15)) == TestDates.at(5, 30))
        #expect(home.log.logged("cannot count the unavailable reload"))
    }

    /// The unavailable counts in the container.
    func backoffFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: home.container.directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("widget-unavailable-") }
    }
}
