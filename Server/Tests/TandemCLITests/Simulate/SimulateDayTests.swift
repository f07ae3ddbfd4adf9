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
        let run = try await TandemExecutable.run(["simulate", "day", "--json"] + arguments)
        #expect(run.status == 0, "\(run.stderr.suffix(2_000))")
        let line = try #require(run.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let modes = try #require(object["modes"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: modes.compactMap { mode in (mode["mode"] as? String).map { ($0, mode) } })
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
        #expect(lines.contains { $0.hasPrefix("brokered ") } && lines.contains { $0.hasPrefix("direct ") })
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("brokered") && svg.contains("direct") && svg.contains("<circle"))
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
    func theDefaultsKeepBothModesWithinTheirBounds() async throws {
        let modes = try await day([])
        let direct = try #require(modes["direct"])
        // Its refresh interval: the rows' default freshness, 40 minutes.
        let directP95 = number(direct, "p95_staleness_seconds", else: .max)
        #expect(directP95 < 40 * 60 + 5 * 60, "\(direct)")
        #expect(modes.count == 2)
        for (name, mode) in modes {
            let reloads = number(mode, "reloads", else: .max)
            let declined = number(mode, "declined_reloads", else: .max)
            #expect(reloads <= 40, "\(name): \(mode)")
            #expect(declined == 0, "\(name): \(mode)")
        }
    }

    @Test("refuses settings out of range")
    func refusesBadSettings() async throws {
        for arguments in [["--open", "25:00"], ["--grant-delay", "90-15"], ["--never-opened", "--open", "09:00"], ["--scheduler", "daily"]] {
            let run = try await TandemExecutable.run(["simulate", "day"] + arguments)
            #expect(run.status != 0, "\(arguments)")
        }
    }
}
