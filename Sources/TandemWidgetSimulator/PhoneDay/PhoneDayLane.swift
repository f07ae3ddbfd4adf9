import Foundation
import TandemWidgetModel

/// What the ``PhoneDay`` asks of each mode, whatever its provider's types.
protocol PhoneDayLaneRunning: Sendable {
    /// Places the widgets and plays the app's last use before the day.
    func begin() async
    /// The earliest date this mode has something to do: a widget entry or reload, a background run.
    func nextDate() async -> Date?
    /// Shows the widgets' entries and makes their reloads up to `date`.
    func advanceWidgets(to date: Date) async
    /// The user opens the app.
    func open() async
    /// The app moves to the background.
    func moveToBackground() async
    /// Runs the background work if the system grants it at `now`.
    func grantIfDue(now: Date) async
    /// Applies a push that reached the device now, as iOS would.
    func receive(_ kind: PhoneDayPush.Kind) async
    /// The widgets' version of the data, the oldest shown (`nil` when one shows none).
    func shownVersions() async -> [Int?]
    /// The user taps Approve on the `number`th approval (the phone is unlocked).
    func tap(_ number: Int) async
    /// The phone is unlocked for the first time after its restart: notes the reloads left.
    func noteFirstUnlock() async
    /// Records a staleness sample.
    func record(_ sample: PhoneDaySample) async
    /// The mode's figures for the day.
    func report(from start: Date, to end: Date) async -> PhoneDayModeReport
}

/// One mode of a ``PhoneDay``: the app's widgets in a ``TimelineSimulator`` whose provider is
/// launched anew for every reload, and the app's background task scheduler.
actor PhoneDayLane<App: PhoneDayApp>: PhoneDayLaneRunning {
    let name: String
    let app: App
    let settings: PhoneDaySettings
    let clock: VirtualClock
    let deviceLock: DeviceLock
    let simulator: TimelineSimulator<DiscardedProcessProvider<App.Provider>>
    private var scheduler: SimulatedTaskScheduler
    private var isForceQuit = false
    private var opens: [Date] = []
    private var runs: [PhoneDayModeReport.BackgroundRun] = []
    private var pushes: [PhoneDayModeReport.Push] = []
    private var samples: [PhoneDaySample] = []
    private var reloadsLeftAtFirstUnlock: Int?
    private var taps: [PhoneDayTap] = []

    init(name: String, app: App, settings: PhoneDaySettings, clock: VirtualClock, deviceLock: DeviceLock) {
        self.name = name
        self.app = app
        self.settings = settings
        self.clock = clock
        self.deviceLock = deviceLock
        simulator = TimelineSimulator(
            provider: DiscardedProcessProvider { app.widgetProcess() }, clock: clock,
            dailyReloadBudget: settings.dailyReloadBudget, minimumReloadInterval: settings.minimumReloadInterval)
        scheduler = SimulatedTaskScheduler(settings: settings)
    }

    private var reloads: WidgetReloads {
        let simulator = simulator
        return WidgetReloads(all: { await simulator.reloadAllTimelines() }, ofKind: { await simulator.reloadTimelines(ofKind: $0) })
    }

    func begin() async {
        for widget in app.widgets {
            await simulator.install(kind: widget.kind, family: widget.family, configuration: widget.configuration)
        }
        // The app's last use before the day: its foreground flow asked for background time.
        scheduler.submit(earliest: clock.now.addingTimeInterval(settings.refreshInterval), now: clock.now, mayRun: true)
    }

    func nextDate() async -> Date? {
        [await simulator.nextEventDate, scheduler.grantAt].compactMap { $0 }.min()
    }

    func advanceWidgets(to date: Date) async {
        await simulator.advance(to: date)
    }

    func open() async {
        opens.append(clock.now)
        isForceQuit = false
        scheduler.appMayNotRun()
        await simulator.setHostInForeground(true)
        if await app.open(widgets: reloads) {
            scheduler.submit(earliest: clock.now.addingTimeInterval(settings.refreshInterval), now: clock.now, mayRun: false)
        }
        await noteExecutedTaps()
    }

    func moveToBackground() async {
        await simulator.setHostInForeground(false)
        if settings.refreshPolicy == .resubmitting {
            scheduler.submit(earliest: clock.now.addingTimeInterval(settings.refreshInterval), now: clock.now, mayRun: false)
        }
        if settings.forceQuit {
            isForceQuit = true
        } else {
            scheduler.appMayRun(now: clock.now)
        }
    }

    func grantIfDue(now: Date) async {
        guard let grantAt = scheduler.grantAt, grantAt <= now else { return }
        scheduler.take()
        if settings.refreshPolicy == .resubmitting {
            // First thing in the handler, as AppRefreshScheduler does: the request just run is spent.
            scheduler.submit(earliest: now.addingTimeInterval(settings.refreshInterval), now: now, mayRun: !isForceQuit)
        }
        let succeeded = await app.backgroundRun(widgets: reloads, protectedDataAvailable: deviceLock.isProtectedDataAvailable)
        runs.append(PhoneDayModeReport.BackgroundRun(date: now, succeeded: succeeded))
        await noteExecutedTaps()
    }

    func tap(_ number: Int) async {
        // The system runs the intent in the app's process unless the user force-quit the app
        // (see PhoneDayTap): launched in the background, it executes the request at once.
        let inApp = !isForceQuit
        let result = await app.tap(number, inApp: inApp)
        let now = clock.now
        taps.append(PhoneDayTap(
            date: now, process: inApp ? .app : .widgetExtension, request: result.request, executedAt: result.executed ? now : nil,
            expiresAt: result.expiresAt))
    }

    /// Notes the taps the host has executed since they were made (its runs execute the requests
    /// left in the container).
    private func noteExecutedTaps() async {
        let now = clock.now
        let waiting = taps.filter { $0.executedAt == nil && !$0.expired(by: now) }.compactMap(\.request)
        guard !waiting.isEmpty else { return }
        let executed = await app.executed(waiting)
        for index in taps.indices where taps[index].executedAt == nil {
            if let request = taps[index].request, executed.contains(request) { taps[index].executedAt = now }
        }
    }

    func receive(_ kind: PhoneDayPush.Kind) async {
        let now = clock.now
        let outcome = pushOutcome(kind, at: now)
        pushes.append(PhoneDayModeReport.Push(date: now, kind: kind, outcome: outcome))
        guard outcome == .applied else { return }
        switch kind {
        case .widgets:
            // WidgetKit reloads the timelines "similar to when you call reloadAllTimelines()":
            // charged to the reload budget like the host's reloads.
            await simulator.reloadAllTimelines()
        case .background:
            _ = await app.backgroundPush(widgets: reloads, protectedDataAvailable: deviceLock.isProtectedDataAvailable)
            await noteExecutedTaps()
        }
    }

    /// Whether iOS lets a push of `kind` through at `now`.
    private func pushOutcome(_ kind: PhoneDayPush.Kind, at now: Date) -> PhoneDayModeReport.Push.Outcome {
        let applied = pushes.filter { $0.kind == kind && $0.outcome == .applied }
        switch kind {
        case .widgets:
            let day = (now.timeIntervalSince(settings.start) / 86_400).rounded(.down)
            let today = applied.filter { ($0.date.timeIntervalSince(settings.start) / 86_400).rounded(.down) == day }
            return today.count < settings.widgetPushBudget ? .applied : .overBudget
        case .background:
            // The system launches no app for a background push without Background App Refresh,
            // in Low Power Mode, or after the user force-quit it.
            guard scheduler.isAvailable, !isForceQuit else { return .notDelivered }
            let lastHour = applied.filter { now.timeIntervalSince($0.date) < 3_600 }
            return lastHour.count < settings.backgroundPushesPerHour ? .applied : .overBudget
        }
    }

    func shownVersions() async -> [Int?] {
        var versions: [Int?] = []
        for widget in await simulator.instances {
            versions.append(await simulator.displayedEntry(of: widget).flatMap { app.version(shownBy: $0) })
        }
        return versions
    }

    func record(_ sample: PhoneDaySample) {
        samples.append(sample)
    }

    func noteFirstUnlock() async {
        guard reloadsLeftAtFirstUnlock == nil else { return }
        let dayStart = settings.start.addingTimeInterval((clock.now.timeIntervalSince(settings.start) / 86_400).rounded(.down) * 86_400)
        var counted: [WidgetInstance<App.Provider.Configuration>: Int] = [:]
        for record in await simulator.trace where record.date >= dayStart {
            if case .reloaded(_, true) = record.event { counted[record.instance, default: 0] += 1 }
        }
        reloadsLeftAtFirstUnlock = max(0, settings.dailyReloadBudget - (counted.values.max() ?? 0))
    }

    func report(from start: Date, to end: Date) async -> PhoneDayModeReport {
        let trace = await simulator.trace.filter { $0.date >= start && $0.date < end }
        var counted: [WidgetInstance<App.Provider.Configuration>: Int] = [:]
        var reloads: [PhoneDayModeReport.Reload] = []
        var declined = 0
        for record in trace {
            switch record.event {
            case .reloaded(_, let isCounted):
                reloads.append(PhoneDayModeReport.Reload(date: record.date, counted: isCounted))
                if isCounted { counted[record.instance, default: 0] += 1 }
            case .reloadDeclined:
                declined += 1
            case .displayed:
                break
            }
        }
        return PhoneDayModeReport(
            mode: name, samples: samples, reloadsUsed: counted.values.max() ?? 0, reloads: reloads, declinedReloads: declined,
            backgroundRuns: runs.filter { $0.date >= start && $0.date < end }, refusedRequests: scheduler.refusals,
            appOpens: opens.filter { $0 >= start && $0 < end }, pushes: pushes.filter { $0.date >= start && $0.date < end },
            reloadsLeftAtFirstUnlock: reloadsLeftAtFirstUnlock, taps: taps.filter { $0.date >= start && $0.date < end })
    }
}
