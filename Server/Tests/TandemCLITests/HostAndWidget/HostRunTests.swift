import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `tandem host run`, the host app as a long-running process against a real server: it fulfils
/// a widget's request when the request is written (not on its timer), and SIGTERM during its
/// work leaves every request completed with its snapshot or still pending.
@Suite("The long-running host", .serialized)
struct HostRunTests {
    static let page = ["--destination", "sales", "--entity-set", "SalesOrders", "--limit", "3"]

    @Test func aWidgetsRequestIsFulfilledWhenItIsWrittenNotOnTheTimer() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        // An hour between scheduled runs: only the file watch can explain a prompt fulfilment.
        let host = try await startHost(fixture, interval: 3600)
        defer { host.kill() }
        try await waitFor(host, "\"host\":\"running\"")

        #expect(try await fixture.widget(["request"] + Self.page).status == 0)
        try await waitFor(host, "\"trigger\":\"request\"")
        let run = try #require(ExtensionFixture.jsonLines(host.output).first { $0["run"] != nil })
        let outcomes = run["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["result"] as? String } == ["fulfilled"], "\(run)")
        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.page).stdout)
        #expect((read["snapshot"] as? [String: Any])?["freshness"] as? String == "fresh", "\(read)")

        host.terminate()
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))
        #expect(host.status == 0, "\(host.errors)")
        #expect(ExtensionFixture.jsonLines(host.output).last?["host"] as? String == "stopped")
    }

    @Test(arguments: [0, 5, 20, 60])
    func sigtermDuringItsWorkLeavesEveryRequestCompletedOrPending(delayMilliseconds: Int) async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let host = try await startHost(fixture, interval: 3600)
        defer { host.kill() }
        try await waitFor(host, "\"host\":\"running\"")

        let pages = ["SalesOrders", "Customers", "Products"].map { ["--destination", "sales", "--entity-set", $0, "--limit", "3"] }
        for page in pages { #expect(try await fixture.widget(["request"] + page).status == 0) }
        try await Task.sleep(for: .milliseconds(delayMilliseconds))
        host.terminate()
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))
        #expect(host.status == 0, "\(host.errors)")

        // Nothing half-written: no temporary file is left, every snapshot there opens, and each
        // request is either fulfilled (snapshot, no request) or still pending (request, no snapshot).
        let container = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container")
        for folder in ["requests", "snapshots"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: container.appendingPathComponent(folder).path)
            #expect(!names.contains { $0.hasPrefix(".") }, "\(folder): \(names)")
        }
        let pending = try FileManager.default.contentsOfDirectory(atPath: container.appendingPathComponent("requests").path).count
        var fresh = 0
        for page in pages {
            let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + page).stdout)
            if (read["snapshot"] as? [String: Any])?["freshness"] as? String == "fresh" { fresh += 1 }
        }
        #expect(fresh + pending == pages.count, "fresh \(fresh), pending \(pending), after \(delayMilliseconds) ms")
    }

    @Test func requestsItCannotFulfilDoNotMakeTheHostSpinButAskingAgainWakesIt() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        #expect(try await fixture.widget(["configure", "--instance", "customers", "--destination", "sales", "--entity-set", "Customers"]).status == 0)
        let host = try await startHost(fixture, interval: 3600)
        defer { host.kill() }
        try await waitFor(host, "\"host\":\"running\"")
        // With the session revoked nothing can be fetched: every request stays pending.
        try await fixture.revokeTheUsersFamily()

        #expect(try await fixture.widget(["request"] + Self.page).status == 0)
        try await waitFor(host, "\"run\":1")
        // The host's own request for the configured widget may wake it once more (when it was
        // written during a run); after that nothing new is there, and nothing must wake it: the
        // host goes back to waiting (a spinning host never would).
        try await waitUntilWaiting(host)
        var runs = ExtensionFixture.jsonLines(host.output).filter { $0["run"] != nil }
        let settled = runs.count
        #expect((1...2).contains(settled), "\(runs)")
        #expect(runs.allSatisfy { ($0["outcomes"] as? [[String: Any]])?.allSatisfy { $0["result"] as? String == "failed" } == true }, "\(runs)")

        #expect(try await fixture.widget(["request"] + Self.page).status == 0)
        try await waitFor(host, "\"run\":\(settled + 1)")
        try await waitUntilWaiting(host)
        runs = ExtensionFixture.jsonLines(host.output).filter { $0["run"] != nil }
        #expect(runs.count == settled + 1, "one run for the one new request, none without: \(runs)")
        #expect(runs.last?["trigger"] as? String == "request", "\(runs)")
        host.terminate()
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))
        #expect(host.status == 0, "\(host.errors.suffix(2000))")
    }

    private func startHost(_ fixture: ExtensionFixture, interval: Int) async throws -> BackgroundTandem {
        try await BackgroundTandem(
            ["host", "run", "--dir", fixture.dir, "--interval", String(interval)], scratch: fixture.scratch.url,
            environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
    }

    private func waitFor(_ host: BackgroundTandem, _ text: String) async throws {
        try await host.waitForOutput(containing: text)
    }

    /// Waits until the host's last line says it waits with nothing new to do: it has settled.
    private func waitUntilWaiting(_ host: BackgroundTandem) async throws {
        try await waitUntil("the host waiting with nothing new to do", details: host.output) {
            guard host.isRunning else { throw TestSetupError("it stopped instead of waiting: \(host.output) \(host.errors.suffix(2000))") }
            return ExtensionFixture.jsonLines(host.output).last?["host"] as? String == "waiting"
        }
    }
}
