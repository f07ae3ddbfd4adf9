import ArgumentParser
import Foundation
import TandemTool
import TandemWidgetSimulator

/// `tandem simulate day`: a phone day (TandemWidgetSimulator's `PhoneDay`) against the real
/// server, in this process, on a virtual clock: the host app and its business widget in each
/// mode, under iOS's rules. In the pushed mode the server's real outbox and sender push through
/// the APNs stand-in (`--no-pushes` leaves the server without an APNs key). Prints each mode's
/// staleness percentiles, reloads, background runs and pushes; `--chart` draws the day as SVG.
///
/// `--matrix` plays the whole grid of days instead (`PhoneDayMatrix`: data every 2 to 120
/// minutes, two active days, six ways of using the phone), prints one table, checks the pushed
/// widget's rules in every cell, exits 1 naming each cell that breaks one, and with `--chart`
/// draws the heat map of p95 staleness per mode.
struct SimulateDay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Simulate 24 hours of iOS for the app and its widget, per mode, against the real server.")

    @Option(name: .long, help: "A mode to simulate: brokered, direct or pushed (repeat it; default all three).")
    var mode: [PhoneDayWidgetMode] = []

    @Option(name: .long, help: "A time the user opens the app, HH:MM (repeat it; default 08:00, 12:30 and 18:00).")
    var open: [String] = []

    @Flag(name: .long, help: "The user never opens the app during the day.")
    var neverOpened = false

    @Option(name: .long, help: "Minutes the app stays in the foreground each time.")
    var foregroundMinutes: Double = 5

    @Flag(name: .long, help: "The user force-quits the app after each use: no background launch until it is opened again.")
    var forceQuit = false

    @Flag(name: .long, help: "Background App Refresh is off for the app.")
    var noBackgroundRefresh = false

    @Flag(name: .long, help: "Low Power Mode is on all day (background refresh paused).")
    var lowPowerMode = false

    @Option(name: .long, help: "The phone restarted before the day and is first unlocked at HH:MM (or at the first app open).")
    var firstUnlock: String?

    @Option(name: .long, help: "How the app asks for background time: resubmitting (the fix) or one-shot (before cd5d20c).")
    var scheduler = AppRefreshPolicy.resubmitting.rawValue

    @Option(name: .long, help: "Minutes after now the app asks its next background run to begin (earliestBeginDate).")
    var refreshMinutes: Double = 30

    @Option(name: .long, help: "Minutes after earliestBeginDate the system grants a run, drawn from MIN-MAX.")
    var grantDelay = "15-90"

    @Option(name: .long, help: "Minutes between two changes of the server's data.")
    var dataEvery: Double = 30

    @Option(name: .long, help: "When the server's data first changes, HH:MM.")
    var dataFrom = "08:00"

    @Option(name: .long, help: "When the server's data last changes, HH:MM.")
    var dataUntil = "18:00"

    @Option(name: .long, help: "A time the user taps Approve on the widget, HH:MM (repeat it; each tap decides another pending approval).")
    var tap: [String] = []

    @Option(name: .long, help: "Counted reloads each widget gets a day.")
    var budget = 50

    @Flag(name: .long, help: "The server sends no pushes (it has no APNs key): the pushed mode lives on its schedules alone.")
    var noPushes = false

    @Option(name: .long, help: "WidgetKit pushes the widgets take a day; more are dropped.")
    var widgetPushBudget = 40

    @Option(name: .long, help: "Background pushes iOS launches the host for in any hour; more are dropped.")
    var backgroundPushesPerHour = 2

    @Option(name: .long, help: "The seed of the system's choices.")
    var seed: UInt64 = 23

    @Option(name: .long, help: "The day, YYYY-MM-DD, in UTC.")
    var date = "2030-01-07"

    @Option(name: .long, help: "Write the day's chart (SVG) to this file.")
    var chart: String?

    @Flag(name: .long, help: "Print one JSON object instead of the table.")
    var json = false

    @Flag(name: .long, help: "Play the grid of days (every data pace, active day and use of the phone), check the pushed widget's rules in each, exit 1 if a cell breaks one; --chart draws the heat map.")
    var matrix = false

    func run() async throws {
        if matrix {
            try await runMatrix()
            return
        }
        let settings = try settings()
        let modes = mode.isEmpty ? PhoneDayWidgetMode.allCases : mode
        let report = try await PhoneDaySimulation.run(settings: settings, modes: modes, pushes: !noPushes)
        if let chart {
            try Data(PhoneDayChart().svg(report).utf8).write(to: URL(fileURLWithPath: chart), options: .atomic)
        }
        if json {
            JSONLine.print(Self.describe(report, pushes: !noPushes))
        } else {
            print(Self.summary(settings, pushes: !noPushes))
            print(report.table)
            if let chart { print("chart: \(chart)") }
        }
    }

    /// The grid of days: progress on stderr, the table (or JSON) on stdout, the rules checked.
    private func runMatrix() async throws {
        guard let start = Self.day(date) else { throw ValidationError("--date takes YYYY-MM-DD") }
        let modes = mode.isEmpty ? PhoneDayWidgetMode.allCases : mode
        let began = Date()
        let cells = PhoneDayMatrix.cells
        let report = try await PhoneDayMatrixRun.run(cells: cells, date: start, modes: modes) { done, total, cell in
            FileHandle.standardError.write(Data("phone day \(done)/\(total): \(cell.label)\n".utf8))
        }
        if let chart {
            try Data(PhoneDayHeatMap().svg(report).utf8).write(to: URL(fileURLWithPath: chart), options: .atomic)
        }
        let violations = report.violations()
        if json {
            JSONLine.print([
                "cells": report.entries.map { entry -> [String: Any] in
                    var described = Self.describe(entry.report, pushes: true)
                    described["cell"] = entry.cell.label
                    return described
                },
                "violations": violations,
            ])
        } else {
            print("Phone days: \(cells.count) cells × \(modes.count) modes in \(Int(Date().timeIntervalSince(began))) s")
            print(report.table)
            if let chart { print("heat map: \(chart)") }
            print(violations.isEmpty ? "every cell keeps the pushed widget's rules" : "cells that break a rule:\n" + violations.joined(separator: "\n"))
        }
        if !violations.isEmpty { throw ExitCode(1) }
    }

    /// The options as the day's settings, each value checked.
    func settings() throws -> PhoneDaySettings {
        guard let start = Self.day(date) else { throw ValidationError("--date takes YYYY-MM-DD") }
        var settings = PhoneDaySettings(start: start)
        if neverOpened {
            guard open.isEmpty else { throw ValidationError("--never-opened and --open exclude each other") }
            settings.appOpens = []
        } else if !open.isEmpty {
            settings.appOpens = try open.map { try Self.time($0, option: "--open") }
        }
        settings.foregroundDuration = foregroundMinutes * 60
        settings.forceQuit = forceQuit
        settings.backgroundAppRefresh = !noBackgroundRefresh
        settings.lowPowerMode = lowPowerMode
        settings.firstUnlock = try firstUnlock.map { try Self.time($0, option: "--first-unlock") }
        guard let policy = AppRefreshPolicy(rawValue: scheduler) else { throw ValidationError("--scheduler takes resubmitting or one-shot") }
        settings.refreshPolicy = policy
        settings.refreshInterval = refreshMinutes * 60
        let bounds = grantDelay.split(separator: "-").map { Double($0) }
        guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low.isFinite, high.isFinite, low >= 0, low <= high else {
            throw ValidationError("--grant-delay takes MIN-MAX in minutes, such as 15-90")
        }
        settings.grantDelay = low * 60...high * 60
        let from = try Self.time(dataFrom, option: "--data-from")
        let until = try Self.time(dataUntil, option: "--data-until")
        guard dataEvery.isFinite, dataEvery >= 1, from <= until else {
            throw ValidationError("--data-every takes at least 1 minute, and --data-from comes before --data-until")
        }
        settings.dataChanges = Array(stride(from: from, through: until, by: dataEvery * 60))
        settings.taps = try tap.map { try Self.time($0, option: "--tap") }
        settings.dailyReloadBudget = budget
        settings.widgetPushBudget = widgetPushBudget
        settings.backgroundPushesPerHour = backgroundPushesPerHour
        settings.seed = seed
        do {
            try settings.validate()
        } catch .invalidSetting(let message) {
            throw ValidationError(message)
        }
        return settings
    }

    /// One line saying what the day was.
    static func summary(_ settings: PhoneDaySettings, pushes: Bool) -> String {
        let opens = settings.appOpens.isEmpty ? "never opened" : "opened at " + settings.appOpens.map(clockTime).joined(separator: ", ")
        let refresh = !settings.backgroundAppRefresh ? "Background App Refresh off" : settings.lowPowerMode ? "Low Power Mode" : "Background App Refresh on"
        return "Phone day: app \(opens)\(settings.forceQuit ? " (force-quit)" : ""); \(refresh); \(settings.refreshPolicy.rawValue) scheduler; "
            + "\(settings.dataChanges.count) data changes; budget \(settings.dailyReloadBudget) reloads; "
            + (pushes
                ? "pushes on, budget \(settings.widgetPushBudget) WidgetKit pushes a day, \(settings.backgroundPushesPerHour) background pushes an hour"
                : "pushes off")
    }

    /// The report as JSON: per mode, seconds of staleness, reloads, background runs and pushes.
    static func describe(_ report: PhoneDayReport, pushes: Bool) -> [String: Any] {
        [
            "date": ISO8601DateFormatter().string(from: report.settings.start),
            "scheduler": report.settings.refreshPolicy.rawValue,
            "data_changes": report.dataChanges.count,
            "pushes": pushes, "widget_push_budget": report.settings.widgetPushBudget,
            "background_pushes_per_hour": report.settings.backgroundPushesPerHour,
            "modes": report.modes.map { mode -> [String: Any] in
                [
                    "mode": mode.mode, "p50_staleness_seconds": Int(mode.p50Staleness), "p95_staleness_seconds": Int(mode.p95Staleness),
                    "max_staleness_seconds": Int(mode.maximumStaleness), "final_staleness_seconds": Int(mode.samples.last?.staleness ?? 0),
                    "reloads": mode.reloadsUsed, "declined_reloads": mode.declinedReloads,
                    "free_reloads": mode.reloads.filter { !$0.counted }.count,
                    "background_runs": mode.backgroundRuns.map { clockTime(of: $0.date, from: report.settings.start) },
                    "app_opens": mode.appOpens.count,
                    "pushes": mode.pushes.count, "pushes_applied": mode.pushes(.applied), "pushes_over_budget": mode.pushes(.overBudget),
                    "pushes_not_delivered": mode.pushes(.notDelivered),
                    "widget_pushes": mode.pushes.filter { $0.kind == .widgets }.count,
                    "widget_pushes_used": mode.widgetPushesUsed(from: report.settings.start),
                    "background_pushes": mode.pushes.filter { $0.kind == .background }.count,
                    "background_pushes_busiest_hour": mode.backgroundPushesInBusiestHour,
                    "reloads_left_at_first_unlock": mode.reloadsLeftAtFirstUnlock.map { $0 as Any } ?? NSNull(),
                    "taps": mode.taps.map { tap -> [String: Any] in
                        [
                            "at": clockTime(of: tap.date, from: report.settings.start), "process": tap.process.rawValue,
                            "written": tap.request != nil,
                            "seconds_to_execution": tap.secondsToExecution.map { Int($0) as Any } ?? NSNull(),
                            "expired": tap.expired(by: report.settings.end),
                        ]
                    },
                ]
            },
        ]
    }

    /// Seconds after midnight of "HH:MM".
    static func time(_ text: String, option: String) throws -> TimeInterval {
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2, let hours = parts[0], let minutes = parts[1], (0..<24).contains(hours), (0..<60).contains(minutes) else {
            throw ValidationError("\(option) takes HH:MM, such as 09:00")
        }
        return TimeInterval(hours * 3_600 + minutes * 60)
    }

    /// Midnight UTC of "YYYY-MM-DD".
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: .utcGregorian) else { return nil }
        return Calendar.utcGregorian.date(from: components)
    }

    /// "HH:MM" of `seconds` after midnight.
    static func clockTime(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        let hours = minutes / 60 % 24
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }

    /// "HH:MM" of `date` on the day starting at `start`.
    static func clockTime(of date: Date, from start: Date) -> String {
        clockTime(date.timeIntervalSince(start))
    }
}
