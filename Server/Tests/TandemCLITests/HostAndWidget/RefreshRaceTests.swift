import Foundation
import Testing
import TandemTestSupport

/// The refresh race with real processes: the host and seven widget processes all want a fresh
/// extension-grant token at the same moment, round after round, against a server whose grace
/// window is zero — so a second redemption of one refresh token would be a reuse that revokes
/// the family and signs everyone out. Single flight across processes must make that impossible.
@Suite("Single-flight refresh across processes", .serialized)
struct RefreshRaceTests {
    static let participants = 8

    @Test func eightProcessesRefreshOnceARoundAndNobodySeesInvalidGrant() async throws {
        let rounds = 50
        let fixture = try await ExtensionFixture.start(graceSeconds: 0)
        defer { Task { try? await fixture.stop() } }
        let tokenRequestsBefore = try await fixture.requestCount(method: "POST", path: "/oauth/token")

        let processes = try await Self.launch(fixture, rounds: rounds, extra: [])
        try await BackgroundTandem.waitForAll(processes, timeout: .seconds(240))
        for process in processes { #expect(process.status == 0, "\(process.errors.suffix(1000))") }

        let results = try Self.roundResults(processes, rounds: rounds)
        for (round, lines) in results.enumerated() {
            #expect(lines.count == Self.participants, "round \(round): every process answered")
            #expect(lines.filter { $0["refreshed"] as? Bool == true }.count == 1, "round \(round): exactly one process refreshed")
            #expect(Set(lines.compactMap { $0["token"] as? String }).count == 1, "round \(round): everyone ends with the winner's token")
            #expect(lines.allSatisfy { $0["result"] as? String == "ok" }, "round \(round): \(lines.filter { $0["result"] as? String != "ok" })")
        }
        #expect(try await fixture.requestCount(method: "POST", path: "/oauth/token") - tokenRequestsBefore == rounds,
                "one refresh request reached the server per round")
        try await Self.expectWorkingSession(fixture)
    }

    @Test func aProcessKilledWhileHoldingTheLeaseBlocksOthersOnlyUntilItExpires() async throws {
        let rounds = 8
        let killRound = Int.random(in: 2..<6)
        let fixture = try await ExtensionFixture.start(graceSeconds: 0)
        defer { Task { try? await fixture.stop() } }
        let tokenRequestsBefore = try await fixture.requestCount(method: "POST", path: "/oauth/token")
        let marker = fixture.scratch.url.appendingPathComponent("stalled").path
        // Whoever takes the lease first in `killRound` stalls there (once: the marker file); the
        // test kills that process while it holds the lease; the survivors meet without it from
        // the next round on.
        let processes = try await Self.launch(
            fixture, rounds: rounds, extra: ["--lease-seconds", "1", "--stall-round", String(killRound), "--stall-once-file", marker])

        var victim: BackgroundTandem?
        try await waitUntil("a process stalling while holding the lease", poll: .milliseconds(10)) {
            victim = processes.first { $0.output.contains("\"event\":\"stalling\"") }
            return victim != nil
        }
        let killed = try #require(victim, "a process stalled while holding the lease")
        killed.kill()
        let survivors = processes.filter { $0 !== killed }
        try await BackgroundTandem.waitForAll(processes, timeout: .seconds(150))
        for process in survivors { #expect(process.status == 0, "\(process.errors.suffix(1000))") }

        // The victim took part until it was killed: its earlier rounds count, and in one of them it
        // may well have been the refresher.
        let results = try Self.roundResults(processes, rounds: rounds)
        for (round, lines) in results.enumerated() {
            #expect(lines.count == (round < killRound ? Self.participants : Self.participants - 1), "round \(round): every live process answered")
            #expect(lines.allSatisfy { $0["result"] as? String == "ok" }, "round \(round): \(lines.filter { $0["result"] as? String != "ok" })")
            #expect(lines.filter { $0["refreshed"] as? Bool == true }.count == 1, "round \(round) (kill round \(killRound)): exactly one refreshed: \(lines)")
            #expect(Set(lines.compactMap { $0["token"] as? String }).count == 1)
        }
        let waited = results[killRound].compactMap { $0["waited_ms"] as? Double }.max() ?? 0
        #expect(waited >= 700, "the survivors waited for the dead holder's lease to expire (\(waited) ms)")
        #expect(try await fixture.requestCount(method: "POST", path: "/oauth/token") - tokenRequestsBefore == rounds,
                "the killed holder never redeemed; the survivors redeemed once a round")
        try await Self.expectWorkingSession(fixture)
    }

    // MARK: - Helpers

    /// Starts one `tandem host race` and seven `tandem widget race` processes whose rounds begin
    /// together: each round starts once all of them finished the previous one (a file barrier),
    /// so a loaded machine cannot put them out of step.
    private static func launch(_ fixture: ExtensionFixture, rounds: Int, extra: [String]) async throws -> [BackgroundTandem] {
        let barrier = fixture.scratch.url.appendingPathComponent("barrier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: barrier, withIntermediateDirectories: true)
        let common = ["--dir", fixture.dir, "--rounds", String(rounds), "--barrier-dir", barrier.path, "--participants", String(participants)] + extra
        var processes: [BackgroundTandem] = []
        for index in 0..<participants {
            processes.append(try await BackgroundTandem([index == 0 ? "host" : "widget", "race"] + common, scratch: fixture.scratch.url))
        }
        return processes
    }

    /// The `{"round": r, "result": …}` lines of every process, grouped by round.
    private static func roundResults(_ processes: [BackgroundTandem], rounds: Int) throws -> [[[String: Any]]] {
        var byRound = Array(repeating: [[String: Any]](), count: rounds)
        for process in processes {
            for line in ExtensionFixture.jsonLines(process.output) where line["result"] != nil {
                guard let round = line["round"] as? Int, byRound.indices.contains(round) else { continue }
                byRound[round].append(line)
            }
        }
        return byRound
    }

    /// The grant still refreshes and reads data, and the host's session is intact.
    private static func expectWorkingSession(_ fixture: ExtensionFixture) async throws {
        let fetch = try await fixture.widget(["fetch", "--destination", "sales", "--entity-set", "Customers", "--limit", "2"])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(try ExtensionFixture.lastJSON(fetch.stdout)["status"] as? Int == 200)
        let status = try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)
        #expect(status["session"] as? String == "ready")
    }
}
