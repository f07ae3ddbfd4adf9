import Foundation
import Testing
import TandemTestSupport

/// Brokered mode with real processes: a widget process asks, a host process with a locked vault
/// and no passcode fulfils through the paired key against the running server, and the widget
/// process reads the decrypted snapshot.
@Suite("Brokered requests across processes", .serialized)
struct BrokeredRoundTripTests {
    static let salesOrders = ["--destination", "sales", "--entity-set", "SalesOrders", "--limit", "5"]

    @Test func widgetRequestIsFulfilledByTheLockedHostAndReadBack() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }

        let before = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.salesOrders).stdout)
        #expect(before["session"] as? String == "ready")
        #expect(before["snapshot"] is NSNull, "nothing fetched yet")

        let request = try await fixture.widget(["request"] + Self.salesOrders)
        #expect(request.status == 0, "\(request.stderr)")
        let again = try await fixture.widget(["request"] + Self.salesOrders)
        #expect(try ExtensionFixture.lastJSON(again.stdout)["request"] as? String == ExtensionFixture.lastJSON(request.stdout)["request"] as? String,
                "the same kind and key is one request")

        let status = try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)
        #expect(status["pending_requests"] as? Int == 1)

        // No TANDEM_PASSCODE in the environment: the host can only use the paired key.
        let fulfil = try await fixture.host(["fulfil"])
        #expect(fulfil.status == 0, "\(fulfil.stderr)")
        let outcomes = try #require(try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 1)
        #expect(outcomes.first?["result"] as? String == "fulfilled")

        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.salesOrders).stdout)
        let snapshot = try #require(read["snapshot"] as? [String: Any])
        #expect(snapshot["freshness"] as? String == "fresh")
        #expect((snapshot["etag"] as? String)?.isEmpty == false)
        let payload = try #require(snapshot["payload"] as? [String: Any])
        let items = try #require(payload["items"] as? [[String: Any]])
        #expect(items.count == 5)

        // The snapshot holds what the server serves for the same page.
        let kioskPage = try await Self.serverPage(fixture)
        #expect(NSDictionary(dictionary: payload) == NSDictionary(dictionary: kioskPage))
        #expect(try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)["pending_requests"] as? Int == 0)
    }

    @Test func requestWithAWrongShareIsRefusedAndNothingIsFetched() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let sharePath = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/secrets/vault.auxiliary-share")
        let genuine = try Data(contentsOf: sharePath)
        // Same key id, other share bytes: a share that looks right and opens nothing.
        var forged = genuine
        for index in 17..<forged.count { forged[index] ^= 0x5A }
        try forged.write(to: sharePath)
        #expect(try await fixture.widget(["request"] + Self.salesOrders).status == 0)
        try genuine.write(to: sharePath)

        let fetchesBefore = try await fixture.requestCount(method: "GET", path: "/v1/destinations/{destination}/{entitySet}")
        let fulfil = try await fixture.host(["fulfil"])
        #expect(fulfil.status == 0, "\(fulfil.stderr)")
        let outcomes = try #require(try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]])
        #expect(outcomes.map { $0["result"] as? String } == ["refused"])
        #expect(try await fixture.requestCount(method: "GET", path: "/v1/destinations/{destination}/{entitySet}") == fetchesBefore)
        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.salesOrders).stdout)
        #expect(read["snapshot"] is NSNull)
        #expect(try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)["pending_requests"] as? Int == 0,
                "a refused request is removed, not retried forever")
    }

    @Test func damagedFilesInTheSharedContainerDoNotStopTheWidgetOrTheHost() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        #expect(try await fixture.widget(["request"] + Self.salesOrders).status == 0)
        let container = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container")
        for (folder, bytes) in [("requests", Data()), ("requests", Data((0..<64).map { _ in UInt8.random(in: 0...255) })),
                                ("snapshots", Data("{\"format\":\"tandem.shared\",\"version\":9}".utf8)), ("configurations", Data([0xFF]))] {
            try bytes.write(to: container.appendingPathComponent(folder).appendingPathComponent("junk-\(UUID().uuidString)"))
        }
        let fulfil = try await fixture.host(["fulfil"])
        #expect(fulfil.status == 0, "\(fulfil.stderr)")
        let outcomes = try #require(try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]])
        #expect(outcomes.map { $0["result"] as? String } == ["fulfilled"], "the valid request is served, the junk skipped")

        // A snapshot cut short reads as none, never as garbage.
        let snapshots = try FileManager.default.contentsOfDirectory(at: container.appendingPathComponent("snapshots"), includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix("junk-") }
        let snapshotFile = try #require(snapshots.first)
        let whole = try Data(contentsOf: snapshotFile)
        try whole.prefix(whole.count / 2).write(to: snapshotFile)
        let read = try await fixture.widget(["read"] + Self.salesOrders)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try ExtensionFixture.lastJSON(read.stdout)["snapshot"] is NSNull)
    }

    @Test func beforeOnboardingTheWidgetShowsSignedOutAndRequestsAreRefusedClearly() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let read = try await fixture.widget(["read"] + Self.salesOrders)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try ExtensionFixture.lastJSON(read.stdout)["session"] as? String == "signedOut")
        let status = try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)
        #expect(status["vault"] as? String == "none")
        #expect(status["pending_requests"] as? Int == 0)
        let request = try await fixture.widget(["request"] + Self.salesOrders)
        #expect(request.status == 1)
        #expect(request.stderr.contains("tandem host onboard"), "the error says what to do: \(request.stderr)")
    }

    /// The same page, fetched straight from the server by the widget's direct mode (its own
    /// extension grant), for comparison with the brokered snapshot.
    private static func serverPage(_ fixture: ExtensionFixture) async throws -> [String: Any] {
        let fetched = try await fixture.widget(["fetch"] + salesOrders + ["--print-payload"])
        guard fetched.status == 0 else { throw TestSetupError("widget fetch failed: \(fetched.stderr)") }
        guard let payload = try ExtensionFixture.lastJSON(fetched.stdout)["payload"] as? [String: Any] else {
            throw TestSetupError("widget fetch printed no payload")
        }
        return payload
    }
}
