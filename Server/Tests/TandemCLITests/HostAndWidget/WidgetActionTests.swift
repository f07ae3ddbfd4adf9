import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TandemAuth
import TandemPlatform
import TandemServerTestSupport
import TandemSharedContainer
import TandemTestSupport
import Testing

/// Widget actions end to end, as separate processes against a real server: `tandem widget act`
/// plays the tap (a sealed request in the shared container), `tandem host fulfil` / `host run`
/// executes it with the host's own grant, and the widget shows the result.
@Suite("Widget actions", .serialized)
struct WidgetActionTests {
    static let instance = ["--instance", "approvals"]

    /// A fixture whose widget shows the first four approvals, fetched by the host.
    private func approvalsWidget() async throws -> ExtensionFixture {
        let fixture = try await ExtensionFixture.start()
        #expect(try await fixture.widget(["configure"] + Self.instance + ["--destination", "sales", "--entity-set", "Approvals", "--limit", "4"]).status == 0)
        try await backgroundRun(fixture)
        let rows = try await rows(fixture)
        #expect(rows.count == 4, "a medium widget shows four: \(rows)")
        return fixture
    }

    /// One background run of the host (`tandem host fulfil`): the requests and actions waiting.
    @discardableResult
    private func backgroundRun(_ fixture: ExtensionFixture) async throws -> [String: Any] {
        let run = try await fixture.host(["fulfil"])
        #expect(run.status == 0, "\(run.stderr)")
        return try ExtensionFixture.lastJSON(run.stdout)
    }

    private func act(_ fixture: ExtensionFixture, _ row: String, _ action: String, _ extra: [String] = []) async throws -> TandemExecutable.Outcome {
        try await fixture.widget(["act"] + Self.instance + ["--row", row, "--action", action] + extra)
    }

    /// The rows the widget shows now (its timeline's first entry).
    private func rows(_ fixture: ExtensionFixture) async throws -> [[String: Any]] {
        let timeline = try await fixture.widget(["timeline"] + Self.instance + ["--json"])
        let entries = try ExtensionFixture.lastJSON(timeline.stdout)["entries"] as? [[String: Any]] ?? []
        return entries.first?["rows"] as? [[String: Any]] ?? []
    }

    private func row(_ fixture: ExtensionFixture, _ item: String) async throws -> [String: Any] {
        try #require(try await rows(fixture).first { $0["item"] as? String == item })
    }

    /// The server's own record of `item` (read with the kiosk's API key).
    private func serverItem(_ fixture: ExtensionFixture, _ item: String) async throws -> [String: Any] {
        let page = try await HTTPTestClient().get(
            fixture.server.baseURL, "v1/destinations/sales/Approvals", headers: ["X-API-Key": try #require(fixture.kioskAPIKey)])
        let items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        return try #require(items.first { $0["ApprovalID"] as? String == item })
    }

    /// How many decisions the audit log holds.
    private func decisions(_ fixture: ExtensionFixture) async throws -> Int {
        let audit = try await TandemExecutable.run(["admin", "audit", "--database", fixture.database, "--limit", "1000"])
        return ExtensionFixture.jsonLines(audit.stdout).filter { ($0["kind"] as? String)?.hasPrefix("action.approved") == true }.count
    }

    private func actionFiles(_ fixture: ExtensionFixture) throws -> [URL] {
        let folder = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container/requests")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "action" }
    }

    @Test func aDoubleTapIsExecutedOnceAndTheWidgetShowsItDone() async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        for _ in 0..<2 {
            let tap = try await act(fixture, "PR-1001", "approve")
            #expect(tap.status == 0, "\(tap.stderr)")
            // The second tap finds the first's request: "waiting" once it is older than the app's
            // execution window (a busy machine can take that long between two processes).
            #expect(["pending", "waiting"].contains(try ExtensionFixture.lastJSON(tap.stdout)["state"] as? String))
        }
        #expect(try actionFiles(fixture).count == 1, "one request for two taps")
        let run = try await backgroundRun(fixture)
        #expect((run["actions"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["done"], "\(run)")
        try await backgroundRun(fixture)
        #expect(try await decisions(fixture) == 1)
        #expect(try await serverItem(fixture, "PR-1001")["Status"] as? String == "approved")
        let shown = try await row(fixture, "PR-1001")
        #expect(shown["action_state"] as? String == "done" && (shown["actions"] as? [String])?.isEmpty == true, "\(shown)")
        // The item is decided: a third tap has nothing to offer.
        #expect(try await act(fixture, "PR-1001", "approve").status != 0)
    }

    @Test func aRequestFilePutBackAfterExecutionIsRefusedAsReplayed() async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        #expect(try await act(fixture, "PR-1001", "approve").status == 0)
        let file = try #require(try actionFiles(fixture).first)
        let copy = try Data(contentsOf: file)
        try await backgroundRun(fixture)
        try copy.write(to: file)
        let run = try await backgroundRun(fixture)
        let actions = run["actions"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["outcome"] as? String } == ["refused"] && actions.first?["reason"] as? String == "replayed", "\(run)")
        #expect(try await decisions(fixture) == 1)
        #expect(try await row(fixture, "PR-1001")["action_label"] as? String == "Refused (replayed)")
    }

    @Test func tamperedAndExpiredRequestsAreRefusedAndTheWidgetSaysSo() async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        #expect(try await act(fixture, "PR-1001", "approve").status == 0)
        let file = try #require(try actionFiles(fixture).first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 3] ^= 0x20
        try bytes.write(to: file)
        // Expired before any host could run: a lifetime of a millisecond.
        #expect(try await act(fixture, "PR-1003", "reject", ["--lifetime", "0.001"]).status == 0)
        let run = try await backgroundRun(fixture)
        let outcomes = Set((run["actions"] as? [[String: Any]] ?? []).map { "\($0["outcome"] ?? "") \($0["reason"] ?? "")" })
        #expect(outcomes == ["refused tampered", "expired "], "\(run)")
        #expect(try await decisions(fixture) == 0)
        #expect(try await row(fixture, "PR-1001")["action_label"] as? String == "Refused (tampered)")
        #expect(try await row(fixture, "PR-1003")["action_state"] as? String == "expired")
        #expect(try await serverItem(fixture, "PR-1003")["Status"] as? String == "pending")
    }

    @Test func anItemChangedOnTheServerAfterItWasShownEndsAsAConflictShowingTheNewState() async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        #expect(try await act(fixture, "PR-1003", "approve").status == 0)
        // The back office changes the requisition's amount meanwhile.
        let set = try await TandemExecutable.run([
            "admin", "set-writer", "--database", fixture.database, "--client-id", "tandem-demo-kiosk", "--destination", "sales",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let page = try await HTTPTestClient().get(
            fixture.server.baseURL, "v1/destinations/sales/Approvals", headers: ["X-API-Key": try #require(fixture.kioskAPIKey)])
        var items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        let index = try #require(items.firstIndex { $0["ApprovalID"] as? String == "PR-1003" })
        items[index]["Amount"] = "799.00"
        var put = URLRequest(url: fixture.server.baseURL.appendingPathComponent("v1/destinations/sales/Approvals"))
        put.httpMethod = "PUT"
        put.setValue(try #require(fixture.kioskAPIKey), forHTTPHeaderField: "X-API-Key")
        put.setValue("application/json", forHTTPHeaderField: "Content-Type")
        put.httpBody = try JSONSerialization.data(withJSONObject: ["title": "Sales (demo)", "rows": items])
        // A back office that does not know the set's version learns it from the refusal.
        let blind = try await HTTPTestClient().send(put)
        #expect(blind.status == 428)
        put.setValue(try #require(blind.header("ETag")), forHTTPHeaderField: "If-Match")
        #expect(try await HTTPTestClient().send(put).status == 200)

        let run = try await backgroundRun(fixture)
        #expect((run["actions"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["conflict"], "\(run)")
        #expect(try await serverItem(fixture, "PR-1003")["Status"] as? String == "pending", "nothing was decided")
        let shown = try await row(fixture, "PR-1003")
        #expect(shown["value"] as? String == "799.00" && shown["action_state"] as? String == "conflict", "the new state: \(shown)")
        #expect((shown["actions"] as? [String]) == ["approve", "reject"], "the user may decide on what is there now")
    }

    @Test func theWidgetsGrantCannotCallTheActionEndpointAndTheHostsNeedsStepUpAboveTheThreshold() async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        let item = try await serverItem(fixture, "PR-1002")
        let etag = try #require(item["ETag"] as? String)
        #expect(try await fixture.widget(["fetch", "--destination", "sales", "--entity-set", "Approvals", "--limit", "1"]).status == 0)
        // The widgets' grant, read as the widget reads it: sealed in the shared container under its share.
        let shared = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared")
        let share = try #require(try AuxiliaryShare.load(from: try FileSecretStorage(directory: shared.appendingPathComponent("secrets")), vaultName: "vault"))
        let container = try SharedContainer(directory: shared.appendingPathComponent("container"))
        let widgetToken = try #require(try SharedGrantStore(container: container, share: share).load()?.accessToken)
        let tokens = try await TandemExecutable.run(
            ["vault", "get", "--dir", fixture.dir, "oauth.tokens"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        let hostToken = try #require(try ExtensionFixture.lastJSON(tokens.stdout)["accessToken"] as? String)

        func approve(with token: String, key: String) async throws -> HTTPTestResponse {
            var post = URLRequest(url: fixture.server.baseURL.appendingPathComponent("v1/destinations/sales/Approvals/PR-1002/actions/approve"))
            post.httpMethod = "POST"
            post.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            post.setValue(etag, forHTTPHeaderField: "If-Match")
            post.setValue(key, forHTTPHeaderField: "Idempotency-Key")
            return try await HTTPTestClient().send(post)
        }
        let byWidget = try await approve(with: widgetToken, key: "widget-tries-0000001")
        #expect(byWidget.status == 403, "\(String(decoding: byWidget.body, as: UTF8.self))")
        let withoutStepUp = try await approve(with: hostToken, key: "host-without-proof-01")
        #expect(withoutStepUp.status == 401)
        #expect(String(decoding: withoutStepUp.body, as: UTF8.self).contains("insufficient_user_authentication"))
        #expect(try await serverItem(fixture, "PR-1002")["Status"] as? String == "pending")

        // Through the widget: the background host leaves it for the app; the app, unlocked, executes it.
        #expect(try await act(fixture, "PR-1002", "approve").status == 0)
        let run = try await backgroundRun(fixture)
        #expect((run["actions"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["needs app"], "\(run)")
        #expect(try await row(fixture, "PR-1002")["action_label"] as? String == "Open the app to approve")
        let unlock = try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(unlock.status == 0, "\(unlock.stderr)")
        #expect(try await serverItem(fixture, "PR-1002")["Status"] as? String == "approved")
        #expect(try await row(fixture, "PR-1002")["action_state"] as? String == "done")
    }

    /// When the first host is killed: each an event, not a time, so a busy machine meets the same points.
    enum KillPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// As soon as the tap's request is written.
        case atOnce
        /// Once the server has recorded the decision (the host may still be waiting for its answer).
        case onceDecided
        /// Once the host has written its result (it may not have removed the request yet).
        case onceAnswered

        var testDescription: String { rawValue }
    }

    @Test(arguments: KillPoint.allCases)
    func aHostKilledWhileExecutingExecutesOnceAfterRestart(killPoint: KillPoint) async throws {
        let fixture = try await approvalsWidget()
        defer { Task { try? await fixture.stop() } }
        let host = try await startHost(fixture)
        try await host.waitForOutput(containing: "\"host\":\"waiting\"")
        #expect(try await act(fixture, "PR-1003", "approve").status == 0)
        switch killPoint {
        case .atOnce: break
        case .onceDecided:
            try await waitUntil("the decision recorded", details: host.output) { try await serverItem(fixture, "PR-1003")["Status"] as? String == "approved" }
        case .onceAnswered:
            let results = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container/action-results")
            try await waitUntil("the host's result written", details: host.output) {
                try FileManager.default.contentsOfDirectory(atPath: results.path).contains { $0.hasSuffix(".result") }
            }
        }
        host.kill()
        try await BackgroundTandem.waitForAll([host], timeout: .seconds(60))

        let restarted = try await startHost(fixture)
        defer { restarted.kill() }
        let tap = try await act(fixture, "PR-1003", "approve", ["--wait", "60"])
        // Either the first host answered before it died (the row offers nothing any more), or the
        // restarted one does now.
        if tap.status == 0 {
            #expect(try ExtensionFixture.lastJSON(tap.stdout)["state"] as? String == "done", "\(tap.stdout)")
        } else {
            #expect(tap.stderr.contains("offers no approve"), "\(tap.stderr)")
        }
        try await waitUntil("the decision recorded", details: restarted.output) { try await serverItem(fixture, "PR-1003")["Status"] as? String == "approved" }
        #expect(try await decisions(fixture) == 1, "executed once, killed \(killPoint.rawValue)")
        restarted.terminate()
        try await BackgroundTandem.waitForAll([restarted], timeout: .seconds(60))
    }

    private func startHost(_ fixture: ExtensionFixture) async throws -> BackgroundTandem {
        try await BackgroundTandem(
            ["host", "run", "--dir", fixture.dir, "--interval", "3600"], scratch: fixture.scratch.url,
            environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
    }
}
