import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets
import TandemTestSupport
import Testing

@Suite("The extension communication step serves the widgets' requests in the background and when the app is opened")
struct ExtensionCommunicationStepTests {
    static let orders = EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 2)

    @Test func aPendingWidgetRequestIsFulfilledThroughThePairedKey() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let (share, sealingKey) = try Self.widgetSecrets(fixture)
        let request = try fixture.container.requests.submit(kind: EntitySetKey.kind, key: Self.orders, share: share, sealingKey: sealingKey)

        let reloader = RecordingReloader()
        let vault = fixture.vault
        let lockedWhenReported = Recorder<Bool>()
        let flow = fixture.flow(reloader: reloader, onFulfilment: { _ in lockedWhenReported.append(!vault.isUnlocked) })
        let report = try await flow.run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension communication") == .completed("1 request fulfilled"))

        let reading = try #require(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: Self.orders, using: share))
        #expect(reading.freshness == .fresh)
        #expect(reading.snapshot.etag == "\"sales-SalesOrders-2\"")
        let page = try EntitySetPage(json: reading.snapshot.payload)
        #expect(page.items.map { $0["SalesOrderID"] } == ["SO-1", "SO-2"])
        #expect(page.total == 4)
        #expect(try !fixture.container.requests.pending(sealingKey: sealingKey).contains { $0.id == request.id })
        #expect(lockedWhenReported.all == [true], "locked again as soon as the request was served")
        #expect(!fixture.vault.isUnlocked)
        #expect(reloader.reloads.all == ["all"])

        let fetch = try #require(fixture.server.requests.last { $0.url.path == "/v1/destinations/sales/SalesOrders" })
        #expect(fetch.url.query == "limit=2")
        let user = try #require(try fixture.userTokens())
        #expect(fetch.headers["Authorization"] == "Bearer \(user.accessToken)", "the user's token, from the vault the paired key opened")
    }

    @Test func aRequestWhoseFetchFailsStaysPendingAndNoSnapshotIsWritten() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let (share, sealingKey) = try Self.widgetSecrets(fixture)
        let request = try fixture.container.requests.submit(kind: EntitySetKey.kind, key: Self.orders, share: share, sealingKey: sealingKey)
        fixture.server.failEntitySet(destination: "sales", entitySet: "SalesOrders")

        let reloader = RecordingReloader()
        let outcomes = Recorder<[FulfilmentOutcome]>()
        let flow = fixture.flow(reloader: reloader, onFulfilment: { outcomes.append($0) })
        let report = try await flow.run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension communication") == .completed("0 requests fulfilled, 1 not"))

        guard case .failed(let failed, .fetch(let error))? = outcomes.all.first?.first else {
            Issue.record("expected a failed fetch, got \(outcomes.all)")
            return
        }
        #expect(failed.id == request.id)
        #expect(error as? AuthError == .server(status: 500, code: "server_error", description: "the destination did not answer"))
        #expect(try fixture.container.requests.pending(sealingKey: sealingKey).map(\.id) == [request.id], "tried again next run")
        #expect(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: Self.orders, using: share) == nil)
        #expect(reloader.reloads.all.isEmpty)
        #expect(!fixture.vault.isUnlocked)
        #expect(try fixture.container.status()?.state == .ready, "a failing destination is not a sign-out")
    }

    @Test func configuredWidgetsWithoutAFreshSnapshotAreAskedForOnce() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let widget = DataWidgetConfiguration(destination: "hr", entitySet: "Employees", limit: 5)
        try fixture.container.widgets.register(widget.registration(id: "hr-1", kind: "business", family: .systemMedium))

        let first = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(first.result(of: "extension communication") == .completed("1 request fulfilled (1 for configured widgets)"))
        let reading = try #require(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: widget.entitySetKey, using: try fixture.share()))
        #expect(try EntitySetPage(json: reading.snapshot.payload).items.map { $0["LastName"] } == ["Lovelace", "Hopper"])

        let second = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(second.result(of: "extension communication") == .completed("0 requests fulfilled"), "the snapshot is still fresh")
        #expect(fixture.server.requests.filter { $0.url.path == "/v1/destinations/hr/Employees" }.count == 1)
    }

    @Test func afterABackgroundPushFreshRowsFetchedBeforeItAreFetchedAgain() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let widget = DataWidgetConfiguration(destination: "hr", entitySet: "Employees", limit: 5)
        try fixture.container.widgets.register(widget.registration(id: "hr-1", kind: "business", family: .systemMedium))
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_900_000_000))
        _ = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration, clock: clock))

        clock.advance(by: .seconds(60))
        let pushed = fixture.context(configuration: configuration, clock: clock)
        pushed.contentChangedAt = clock.now  // a background push: the server's data changed
        let run = try await fixture.flow().run(.background, in: pushed)
        #expect(run.result(of: "extension communication") == .completed("1 request fulfilled (1 for configured widgets)"), "fresh, but older than the push")
        #expect(fixture.server.requests.filter { $0.url.path == "/v1/destinations/hr/Employees" }.count == 2)

        let after = fixture.context(configuration: configuration, clock: clock)
        after.contentChangedAt = pushed.contentChangedAt
        let again = try await fixture.flow().run(.background, in: after)
        #expect(again.result(of: "extension communication") == .completed("0 requests fulfilled"), "fetched since the push: kept")
    }

    /// Without background time (Background App Refresh off, Low Power Mode) a widget says "open
    /// the app to update": opening the app, once unlocked, must answer it, and leave the
    /// user's session open.
    @Test func openingTheAppFulfilsWhatTheWidgetsAskedAndKeepsTheSessionOpen() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let (share, sealingKey) = try Self.widgetSecrets(fixture)
        let request = try fixture.container.requests.submit(kind: EntitySetKey.kind, key: Self.orders, share: share, sealingKey: sealingKey)
        // A request carrying a share the extensions no longer hold (written before a rotation) is refused.
        let stale = try AuxiliaryShare(keyID: share.keyID, bytes: Data(repeating: 7, count: 32))
        let other = EntitySetKey(destination: "hr", entitySet: "Employees", limit: 5)
        let forged = try fixture.container.requests.submit(kind: EntitySetKey.kind, key: other, share: stale, sealingKey: sealingKey)

        let reloader = RecordingReloader()
        let outcomes = Recorder<[FulfilmentOutcome]>()
        let report = try await fixture.flow(reloader: reloader, onFulfilment: { outcomes.append($0) })
            .run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        #expect(report.result(of: "extension communication") == .completed("1 request fulfilled, 1 not"))
        #expect(fixture.vault.isUnlocked, "the user's session goes on")
        let reading = try #require(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: Self.orders, using: share))
        #expect(reading.freshness == .fresh)
        #expect(reloader.reloads.all == ["all"])
        let pending = try fixture.container.requests.pending(sealingKey: sealingKey).map(\.id)
        #expect(!pending.contains(request.id) && !pending.contains(forged.id), "both answered: one with rows, one refused")
        #expect(outcomes.all.flatMap { $0 }.contains { if case .refused(let refused) = $0 { refused.id == forged.id } else { false } })
        #expect(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: other, using: share) == nil, "nothing written for the refused one")
        fixture.vault.lock()
    }

    @Test func withoutExtensionAccessThereIsNothingToServe() async throws {
        let fixture = try HostFixture()
        let report = try await Flow([ExtensionCommunicationStep()]).run(.background, in: fixture.context())
        #expect(report.result(of: "extension communication") == .skipped("extension access is not enabled"))
        #expect(fixture.server.requests.isEmpty)
    }

    /// What a widget holds: the auxiliary share and the shared sealing key, from the extensions' storage.
    private static func widgetSecrets(_ fixture: HostFixture) throws -> (AuxiliaryShare, SharedSealingKey) {
        (try fixture.share(), try #require(try SharedSealingKey.load(from: fixture.sharedSecrets)))
    }
}
