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

/// The host answers each data request by the source registered for its kind: entity-set pages
/// and key figures come with Tandem, an app adds its own, and a kind nobody answers is answered
/// once as unsupported instead of at every run.
@Suite("Data sources: one seam for the kinds of data a widget asks for")
struct DataSourcesTests {
    static let approvals = KeyFigureKey(destination: "sales", entitySet: "SalesOrders")
    static let firstOrder = KeyFigureKey(destination: "sales", entitySet: "SalesOrders", field: "SalesOrderID")

    @Test func theStandardSourcesAnswerEntitySetsAndKeyFigures() {
        #expect(DataSources.standard.kinds == [EntitySetKey.kind, KeyFigureKey.kind].sorted())
    }

    @Test func aKeyFigureIsFetchedAndWrittenAloneWithoutTheRows() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let share = try fixture.share()
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        _ = try fixture.container.requests.submit(kind: KeyFigureKey.kind, key: Self.approvals, share: share, sealingKey: sealingKey)
        _ = try fixture.container.requests.submit(kind: KeyFigureKey.kind, key: Self.firstOrder, share: share, sealingKey: sealingKey)

        let report = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension communication") == .completed("2 requests fulfilled"))
        let count = try #require(try fixture.container.snapshots.read(kind: KeyFigureKey.kind, key: Self.approvals, using: share))
        #expect(try JSONDecoder().decode(KeyFigure.self, from: count.snapshot.payload) == KeyFigure(value: "4"))
        let first = try #require(try fixture.container.snapshots.read(kind: KeyFigureKey.kind, key: Self.firstOrder, using: share))
        #expect(try JSONDecoder().decode(KeyFigure.self, from: first.snapshot.payload) == KeyFigure(value: "SO-1"))
        #expect(!String(decoding: first.snapshot.payload, as: UTF8.self).contains("SO-2"), "the figure, not the page")
        let fetch = try #require(fixture.server.requests.last { $0.url.path == "/v1/destinations/sales/SalesOrders" })
        #expect(fetch.url.query == "limit=1")
    }

    @Test func aKindNoSourceAnswersIsAnsweredOnceAsUnsupported() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let share = try fixture.share()
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        let key = EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 2)
        let request = try fixture.container.requests.submit(kind: "weather", key: key, share: share, sealingKey: sealingKey)
        let before = fixture.server.requests.count

        let first = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(first.result(of: "extension communication") == .completed("1 request fulfilled"))
        let answer = try #require(try fixture.container.snapshots.read(kind: "weather", key: key, using: share))
        #expect(String(decoding: answer.snapshot.payload, as: UTF8.self) == #"{"error":"unsupported_kind","kind":"weather"}"#)
        #expect(answer.freshness == .fresh)
        #expect(try !fixture.container.requests.pending(sealingKey: sealingKey).contains { $0.id == request.id })
        #expect(!fixture.server.requests.dropFirst(before).contains { $0.url.path.hasPrefix("/v1/destinations") }, "nothing fetched")

        let second = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(second.result(of: "extension communication") == .completed("0 requests fulfilled"), "not asked again")
    }

    @Test func anAppAddsAKindOfItsOwn() async throws {
        struct Greeting: DataSource {
            let kind = "greeting"
            func fetch(_ request: DataRequest, with vault: Vault, in context: DataSourceContext) async throws -> FetchedData {
                FetchedData(payload: Data(#"{"text":"hello"}"#.utf8), lifetime: context.lifetime)
            }
        }
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let share = try fixture.share()
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        let key = EntitySetKey(destination: "any", entitySet: "thing", limit: 1)
        _ = try fixture.container.requests.submit(kind: "greeting", key: key, share: share, sealingKey: sealingKey)
        let sources = DataSources.standard.adding(Greeting())
        #expect(sources.kinds == ["entity-set", "greeting", "key-figure"])
        _ = try await fixture.flow(sources: sources).run(.background, in: fixture.context(configuration: configuration))
        let reading = try #require(try fixture.container.snapshots.read(kind: "greeting", key: key, using: share))
        #expect(String(decoding: reading.snapshot.payload, as: UTF8.self) == #"{"text":"hello"}"#)
    }

    @Test func aKeyFigureReadsACountOrAFieldAndRefusesWhatIsNotThere() throws {
        let page = Data(#"{"items":[{"amount":"4805.10","n":3,"ok":true}],"limit":1,"next":null,"offset":0,"stale":true,"total":12}"#.utf8)
        #expect(try KeyFigure(page: page, field: nil) == KeyFigure(value: "12", stale: true))
        #expect(try KeyFigure(page: page, field: "amount").value == "4805.10")
        #expect(try KeyFigure(page: page, field: "n").value == "3")
        #expect(throws: DataWidgetError.self) { try KeyFigure(page: page, field: "missing") }
        #expect(throws: DataWidgetError.self) { try KeyFigure(page: Data(#"{"items":[],"total":null}"#.utf8), field: nil) }
        #expect(throws: DataWidgetError.self) { try KeyFigure(page: Data("nope".utf8), field: nil) }
    }
}

/// A customer's backend that refuses the user is an answer the host writes, not a failure it
/// retries at every run.
@Suite("The host writes a backend's refusal for the widget")
struct BackendRefusalFulfilmentTests {
    @Test func aRefusalIsWrittenAsTheSnapshotAndTheRequestIsDone() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let share = try fixture.share()
        let sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        let key = EntitySetKey(destination: "sales", entitySet: "SalesOrders", limit: 2)
        fixture.server.refuseEntitySet(destination: "sales", entitySet: "SalesOrders", error: "backend_forbidden")
        let request = try fixture.container.requests.submit(kind: EntitySetKey.kind, key: key, share: share, sealingKey: sealingKey)

        let report = try await fixture.flow().run(.background, in: fixture.context(configuration: configuration))
        #expect(report.result(of: "extension communication") == .completed("1 request fulfilled"))
        let reading = try #require(try fixture.container.snapshots.read(kind: EntitySetKey.kind, key: key, using: share))
        #expect(DataRefusal(payload: reading.snapshot.payload) == .notAllowed)
        #expect(reading.snapshot.expiresAt.timeIntervalSince(reading.snapshot.fetchedAt) <= EntitySetSource.refusalLifetime)
        #expect(try !fixture.container.requests.pending(sealingKey: sealingKey).contains { $0.id == request.id })
        #expect(try fixture.container.status()?.state == .ready, "a backend's refusal is not a sign-out")
    }
}
