import Foundation

/// Twenty-four hours of iOS on a ``VirtualClock``: the rules the phone applies to a host app and
/// its widgets, played against the app's real code, so the widgets' staleness over a day is a
/// figure a test can pin.
///
/// The phone decides, as iOS does:
/// - when the user opens the app (``PhoneDaySettings/appOpens``), and whether they force-quit it;
/// - whether background time is granted at all (Background App Refresh, Low Power Mode), and
///   when: once per pending `BGAppRefreshTaskRequest`, at a time it chooses after the request's
///   `earliestBeginDate` (``AppRefreshPolicy`` says whether the app submits the next one);
/// - when each widget reloads: its timeline's policy, the host's reloads, the daily budget, a
///   new extension process each time (``DiscardedProcessProvider``);
/// - whether protected data can be read (``DeviceLock``: before the first unlock it cannot);
/// - where a tap on the widget's Approve runs (``PhoneDayTap``): in the app's process unless the
///   user force-quit it, else in the widget extension;
/// - what becomes of a push (``PhoneDayPush``): a WidgetKit push reloads the widgets within
///   ``PhoneDaySettings/widgetPushBudget``; a background push launches the host within
///   ``PhoneDaySettings/backgroundPushesPerHour``, unless Background App Refresh is off, Low
///   Power Mode is on or the user force-quit the app.
///
/// Everything else is the app's own code (``PhoneDayApp``), and the server's: the day changes
/// the server's data at ``PhoneDaySettings/dataChanges`` through `changeData`, takes the pushes
/// the server sent through `sendPushes`, and samples, every ``PhoneDaySettings/sampleInterval``,
/// how far each mode's widget lags behind it.
///
/// ```swift
/// let day = try PhoneDay(settings: settings, clock: clock, deviceLock: lock)
/// let report = await day.run(
///     modes: [PhoneDayMode(name: "brokered", app: brokered), PhoneDayMode(name: "direct", app: direct)],
///     changeData: { version in try? await server.publish(version) })
/// print(report.table)
/// ```
public struct PhoneDay: Sendable {
    /// The day's settings, checked.
    public let settings: PhoneDaySettings
    /// The clock the day moves; the apps and the server read it.
    public let clock: VirtualClock
    /// Whether protected data can be read; the apps read it.
    public let deviceLock: DeviceLock

    /// A day with `settings`, on `clock`, which must not be past `settings.start`.
    ///
    /// - Throws: ``PhoneDayError/invalidSetting(_:)`` for a setting out of range or a clock
    ///   already past the start.
    public init(settings: PhoneDaySettings, clock: VirtualClock, deviceLock: DeviceLock) throws(PhoneDayError) {
        try settings.validate()
        guard clock.now <= settings.start else { throw .invalidSetting("the clock is past the day's start") }
        self.settings = settings
        self.clock = clock
        self.deviceLock = deviceLock
    }

    /// Plays the day for every mode on the one clock and returns the figures.
    ///
    /// - Parameters:
    ///   - modes: The apps, set up (onboarded) before the day; their widgets are placed now.
    ///   - changeData: Changes the server's data to `version` (1 for the first change).
    ///   - sendPushes: Called at every step of the day, after its events: lets the server send
    ///     what it owes now and returns the pushes APNs delivered since the last call. By
    ///     default none.
    ///   - nextPush: When the server next has a push to send without a new change (one it held
    ///     back or will try again), so that the day steps there; `nil` for none. By default none.
    ///
    /// The day steps from one thing that happens to the next (an event, a widget's entry or
    /// reload, a background run, a push due); between two, nothing on the phone changes, so the
    /// staleness samples that fall between are taken from what the widgets show then.
    public func run(
        modes: [PhoneDayMode], changeData: @Sendable (Int) async -> Void, sendPushes: @Sendable () async -> [PhoneDayPush] = { [] },
        nextPush: @Sendable () async -> Date? = { nil }
    ) async -> PhoneDayReport {
        let lanes = modes.map { $0.makeLane(settings, clock, deviceLock) }
        let lanesByName = Dictionary(zip(modes.map(\.name), lanes), uniquingKeysWith: { first, _ in first })
        var published = [clock.now]
        for lane in lanes { await lane.begin() }
        if settings.firstUnlock != nil { deviceLock.restart() }

        var events = PhoneDayAgenda(settings: settings)
        var nextSample = settings.start
        while true {
            // A push due now or earlier waits a second: the step at hand already let it go.
            let pushAt = await nextPush().map { max($0, clock.now.addingTimeInterval(1)) }
            var activity = min(events.nextDate ?? .distantFuture, pushAt ?? .distantFuture)
            for lane in lanes {
                if let date = await lane.nextDate() { activity = min(activity, date) }
            }
            if nextSample < activity, nextSample < settings.end {
                // Nothing happens before `activity`: the widgets show what they show now.
                var shown: [[Int?]] = []
                for lane in lanes { shown.append(await lane.shownVersions()) }
                while nextSample < activity, nextSample < settings.end {
                    for (lane, versions) in zip(lanes, shown) {
                        let staleness = versions.map { Self.staleness(showing: $0, published: published, at: nextSample) }.max() ?? 0
                        await lane.record(PhoneDaySample(date: nextSample, staleness: staleness))
                    }
                    nextSample = nextSample.addingTimeInterval(settings.sampleInterval)
                }
            }
            let next = min(activity, nextSample)
            guard next < settings.end else { break }
            for lane in lanes { await lane.advanceWidgets(to: next) }
            clock.set(next)
            for event in events.take(dueAt: next) {
                switch event {
                case .unlock:
                    await unlock(lanes)
                case .change(let version):
                    published.append(next)
                    await changeData(version)
                case .open:
                    await unlock(lanes)
                    for lane in lanes { await lane.open() }
                case .background:
                    for lane in lanes { await lane.moveToBackground() }
                case .tap(let number):
                    // Widget buttons act only on an unlocked phone: the user unlocks to tap.
                    await unlock(lanes)
                    for lane in lanes { await lane.tap(number) }
                }
            }
            // In one order whatever order APNs answered in: by mode, widgets before background.
            let pushes = await sendPushes().sorted { ($0.mode, $0.kind == .widgets ? 0 : 1) < ($1.mode, $1.kind == .widgets ? 0 : 1) }
            for push in pushes { await lanesByName[push.mode]?.receive(push.kind) }
            for lane in lanes { await lane.grantIfDue(now: next) }
            if next == nextSample {
                for lane in lanes {
                    let staleness = await lane.shownVersions().map { Self.staleness(showing: $0, published: published, at: next) }.max() ?? 0
                    await lane.record(PhoneDaySample(date: next, staleness: staleness))
                }
                nextSample = nextSample.addingTimeInterval(settings.sampleInterval)
            }
        }
        for lane in lanes { await lane.advanceWidgets(to: settings.end) }
        clock.set(settings.end)
        var reports: [PhoneDayModeReport] = []
        for lane in lanes { reports.append(await lane.report(from: settings.start, to: settings.end)) }
        return PhoneDayReport(settings: settings, dataChanges: Array(published.dropFirst()), modes: reports)
    }

    /// Unlocks the phone; at the first unlock after a restart, each lane notes the reloads its
    /// widgets have left.
    private func unlock(_ lanes: [any PhoneDayLaneRunning]) async {
        if settings.firstUnlock != nil, !deviceLock.isProtectedDataAvailable {
            for lane in lanes { await lane.noteFirstUnlock() }
        }
        deviceLock.unlock()
    }

    /// How long the first version after `version` has been out at `date`, or 0 when `version`
    /// is the latest; `nil` (nothing shown) misses version 0.
    static func staleness(showing version: Int?, published: [Date], at date: Date) -> TimeInterval {
        let missed = (version ?? -1) + 1
        guard missed < published.count else { return 0 }
        return max(0, date.timeIntervalSince(published[missed]))
    }
}
