import Foundation
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `tandem simulate day`: a phone day against the real server, in the built binary, on a virtual
/// clock. Each run plays a whole day of iOS in a few seconds and the same way on every machine
/// (the system's choices come from a seed), so its figures are pinned here.
@Suite("tandem simulate day", .serialized)
struct SimulateDayTests {
    /// Runs `tandem simulate day --json` with `arguments`; the modes' figures by name.
    func day(_ arguments: [String]) async throws -> [String: [String: Any]] {
        try await report(arguments).modes
    }

    /// Runs `tandem simulate day --json` with `arguments`; the whole report, and the modes'
    /// figures by name.
    func report(_ arguments: [String]) async throws -> (day: [String: Any], modes: [String: [String: Any]]) {
        let run = try await TandemExecutable.run(["simulate", "day", "--json"] + arguments)
        #expect(run.status == 0, "\(run.stderr.suffix(2_000))")
        let line = try #require(run.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let modes = try #require(object["modes"] as? [[String: Any]])
        return (object, Dictionary(uniqueKeysWithValues: modes.compactMap { mode in (mode["mode"] as? String).map { ($0, mode) } }))
    }

    /// The whole number `key` of `mode`, or `fallback`.
    func number(_ mode: [String: Any], _ key: String, else fallback: Int) -> Int {
        mode[key] as? Int ?? fallback
    }

    /// The background runs of `mode` after `time` ("HH:MM").
    func runs(_ mode: [String: Any], after time: String) -> [String] {
        (mode["background_runs"] as? [String] ?? []).filter { $0 > time }
    }

    @Test("prints the table and writes the chart")
    func printsTheTableAndWritesTheChart() async throws {
        let directory = try TemporaryDirectory()
        let chart = directory.url.appendingPathComponent("day.svg").path
        let run = try await TandemExecutable.run(["simulate", "day", "--chart", chart])
        #expect(run.status == 0, "\(run.stderr.suffix(2_000))")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Phone day: app opened at 08:00, 12:30, 18:00; Background App Refresh on; resubmitting scheduler") == true)
        #expect(lines.contains { $0.hasPrefix("mode") && $0.contains("p50 stale") && $0.contains("p95 stale") && $0.contains("background runs") })
        #expect(lines.contains { $0.hasPrefix("mode") && $0.contains("pushes") && $0.contains("over budget") })
        #expect(lines.contains { $0.hasPrefix("brokered ") } && lines.contains { $0.hasPrefix("direct ") } && lines.contains { $0.hasPrefix("pushed ") })
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("brokered") && svg.contains("direct") && svg.contains("pushed") && svg.contains("<circle"))
        #expect(svg.contains("WidgetKit push"), "the legend names the pushes' marks")
    }

    @Test("with the app never opened after 9:00, the one-shot scheduler leaves the brokered widget stale; the resubmitting one does not")
    func theOneShotSchedulerLeavesTheBrokeredWidgetStale() async throws {
        let oneShot = try await day(["--mode", "brokered", "--open", "09:00", "--scheduler", "one-shot"])
        let brokered = try #require(oneShot["brokered"])
        let oneShotRuns = runs(brokered, after: "09:00")
        #expect(oneShotRuns.count == 1, "\(brokered)")
        // After that one run it never catches up: hours behind at the end of the day.
        let finalStaleness = number(brokered, "final_staleness_seconds", else: 0)
        let oneShotP95 = number(brokered, "p95_staleness_seconds", else: 0)
        #expect(finalStaleness > 8 * 3_600, "\(brokered)")
        #expect(oneShotP95 > 2 * 3_600, "\(brokered)")

        let fixed = try #require(try await day(["--mode", "brokered", "--open", "09:00", "--scheduler", "resubmitting"])["brokered"])
        let fixedRuns = runs(fixed, after: "09:00")
        let fixedP95 = number(fixed, "p95_staleness_seconds", else: .max)
        #expect(fixedRuns.count > 8, "\(fixed)")
        #expect(fixedP95 < 2 * 3_600, "\(fixed)")
    }

    @Test("with the default settings, direct mode lags by less than its refresh interval plus 5 minutes, and no widget uses more than 40 reloads")
    func theDefaultsKeepEveryModeWithinItsBounds() async throws {
        let modes = try await day([])
        let direct = try #require(modes["direct"])
        // Its refresh interval: the rows' default freshness, 40 minutes.
        let directP95 = number(direct, "p95_staleness_seconds", else: .max)
        #expect(directP95 < 40 * 60 + 5 * 60, "\(direct)")
        #expect(modes.count == 3)
        for (name, mode) in modes {
            let reloads = number(mode, "reloads", else: .max)
            let declined = number(mode, "declined_reloads", else: .max)
            #expect(reloads <= 40, "\(name): \(mode)")
            #expect(declined == 0, "\(name): \(mode)")
        }
    }

    @Test("with the app opened only before 9:00 and data changing every 30 minutes, pushes keep the pushed widget within 5 minutes at p95, within Apple's push budgets; the other modes lag")
    func pushesKeepThePushedWidgetFresh() async throws {
        let (day, modes) = try await report(["--open", "08:00"])
        let pushed = try #require(modes["pushed"])
        let pushedP95 = number(pushed, "p95_staleness_seconds", else: .max)
        #expect(pushedP95 < 5 * 60, "\(pushed)")
        // 21 changes half an hour apart, each a first change after a quiet period: a WidgetKit
        // push through the real outbox, sender and APNs stand-in, at once. The widget fetches for
        // itself, so its host is not woken; none over budget.
        #expect(number(pushed, "widget_pushes", else: 0) == 21 && number(pushed, "background_pushes", else: 0) == 0, "\(pushed)")
        #expect(number(pushed, "widget_pushes_used", else: .max) <= number(day, "widget_push_budget", else: 0), "\(pushed)")
        #expect(number(pushed, "background_pushes_busiest_hour", else: .max) <= number(day, "background_pushes_per_hour", else: 0), "\(pushed)")
        #expect(number(pushed, "pushes_over_budget", else: .max) == 0 && number(pushed, "declined_reloads", else: .max) == 0, "\(pushed)")
        for name in ["brokered", "direct"] {
            let mode = try #require(modes[name])
            #expect(number(mode, "pushes", else: .max) == 0, "\(name): \(mode)")
            #expect(number(mode, "p95_staleness_seconds", else: 0) > 15 * 60, "\(name) lags without pushes: \(mode)")
        }

        // The same day without pushes: the pushed widget lags as the direct one does.
        let unpushed = try #require(try await self.day(["--open", "08:00", "--mode", "pushed", "--no-pushes"])["pushed"])
        #expect(number(unpushed, "pushes", else: .max) == 0, "\(unpushed)")
        #expect(number(unpushed, "p95_staleness_seconds", else: 0) > 15 * 60, "\(unpushed)")
    }

    @Test("the matrix of days: every cell keeps the pushed widget's rules, in one table and a heat map")
    func theMatrixKeepsTheRules() async throws {
        let directory = try TemporaryDirectory()
        let heatMap = directory.url.appendingPathComponent("matrix.svg")
        // The two modes the rules compare (the brokered one is in `tandem simulate day --matrix`).
        // `make test` runs this test last and alone (`make test-matrix`): 80 s of CPU would
        // otherwise stretch beside every other suite.
        let run = try await TandemExecutable.run(["simulate", "day", "--matrix", "--mode", "direct", "--mode", "pushed", "--chart", heatMap.path])
        #expect(run.status == 0, "\(run.stdout.suffix(6_000)) \(Self.failure(run.stderr))")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Phone days: 60 cells × 2 modes") == true, "\(lines.prefix(2))")
        #expect(lines.contains { $0.hasPrefix("data") && $0.contains("p95") && $0.contains("left at unlock") })
        #expect(lines.filter { $0.hasPrefix("every ") && !$0.hasPrefix("every cell") }.count == 120, "a line per cell and mode")
        #expect(lines.last == "every cell keeps the pushed widget's rules")
        let svg = try String(contentsOf: heatMap, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("pushed") && svg.contains("every 120 min") && svg.contains("restart, unlock 7:30"))
    }

    /// Twelve taps on Approve over the working day, 45 minutes apart from 8:10, each on another
    /// pending approval.
    static let taps = (0..<12).flatMap { index -> [String] in
        let minutes = 8 * 60 + 10 + index * 45
        return ["--tap", String(format: "%02d:%02d", minutes / 60, minutes % 60)]
    }

    /// Minutes after midnight of "HH:MM".
    static func minutes(_ time: String) -> Int? {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    /// The taps of `mode`, as the report lists them.
    func taps(_ mode: [String: Any]) throws -> [[String: Any]] {
        try #require(mode["taps"] as? [[String: Any]])
    }

    @Test("taps on Approve: the app suspended, each is executed at once in the app's process, with Background App Refresh on or off")
    func tapsExecuteAtOnceInTheApp() async throws {
        for refresh in [[], ["--no-background-refresh"]] {
            let modes = try await day(["--mode", "direct", "--mode", "pushed"] + Self.taps + refresh)
            for name in ["direct", "pushed"] {
                let taps = try taps(try #require(modes[name]))
                #expect(taps.count == 12, "\(refresh) \(name)")
                // The acceptance asks 95 % within 5 s; the model executes them before the intent returns.
                let atOnce = taps.filter { ($0["seconds_to_execution"] as? Int).map { $0 <= 5 } == true }
                #expect(atOnce.count * 100 >= taps.count * 95, "\(refresh) \(name): \(taps)")
                #expect(taps.allSatisfy { $0["process"] as? String == "app" && $0["written"] as? Bool == true })
            }
        }
    }

    @Test("taps on Approve with the app force-quit: each is executed at the app's next opening or waits saying so; none expires")
    func tapsAfterAForceQuitWaitForTheApp() async throws {
        let modes = try await day(["--mode", "direct", "--mode", "pushed", "--force-quit"] + Self.taps)
        for name in ["direct", "pushed"] {
            let taps = try taps(try #require(modes[name]))
            #expect(taps.count == 12)
            #expect(taps.allSatisfy { $0["process"] as? String == "widget-extension" && $0["written"] as? Bool == true }, "\(taps)")
            #expect(taps.allSatisfy { $0["expired"] as? Bool == false }, "\(taps)")
            // Opened at 08:00, 12:30 and 18:00 (then force-quit each time): every tap is executed by
            // the app's next opening, the widget saying "Sent when the app next runs" meanwhile.
            for tap in taps {
                let time = try #require(tap["at"] as? String)
                let at = try #require(Self.minutes(time))
                let seconds = try #require(tap["seconds_to_execution"] as? Int, "\(name) \(tap)")
                let nextOpening = at < 12 * 60 + 30 ? 12 * 60 + 30 : 18 * 60
                #expect(at + seconds / 60 == nextOpening, "\(name) \(tap)")
            }
        }
    }

    /// What a failed run said: from its crash report's head when it crashed (which thread and
    /// why; the registers and images follow), else its last lines.
    static func failure(_ stderr: String) -> String {
        for marker in ["Fatal error", "💣", "crashed:"] {
            if let found = stderr.range(of: marker) { return String(stderr[found.lowerBound...].prefix(4_000)) }
        }
        return String(stderr.suffix(2_000))
    }

    @Test("refuses settings out of range")
    func refusesBadSettings() async throws {
        for arguments in [
            ["--open", "25:00"], ["--grant-delay", "90-15"], ["--never-opened", "--open", "09:00"], ["--scheduler", "daily"],
            ["--widget-push-budget", "-1"], ["--mode", "pulled"], ["--tap", "24:10"],
        ] {
            let run = try await TandemExecutable.run(["simulate", "day"] + arguments)
            #expect(run.status != 0, "\(arguments)")
        }
    }
}
