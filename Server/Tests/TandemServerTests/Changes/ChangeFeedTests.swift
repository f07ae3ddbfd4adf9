import Foundation
import Logging
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The change feed records every change of an entity set's rows, in the transaction that makes
/// it, and only those; the storage sweep forgets changes past their retention.
@Suite("Change feed")
struct ChangeFeedTests {
    @Test("a replacement that changes the rows appends one change with the set's new version; an identical one or a new title appends none", arguments: TestBackend.allCases)
    func changesAreRecordedOncePerChange(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let data = storage.businessData
                try await data.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":0}"#], now: Timestamp(milliseconds: 1_000))
                try await data.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":0}"#], now: Timestamp(milliseconds: 2_000))
                try await data.replaceEntitySet(destination: "shop", title: "Shop, renamed", name: "Items", rows: [#"{"v":0}"#], now: Timestamp(milliseconds: 3_000))
                try await data.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":1}"#, #"{"v":2}"#], now: Timestamp(milliseconds: 4_000))
                try await data.replaceEntitySet(destination: "shop", title: "Shop", name: "Orders", rows: [], now: Timestamp(milliseconds: 5_000))

                let changes = try await storage.changes.changes(since: Timestamp(milliseconds: 0), limit: 100)
                #expect(changes.map(\.changedAt.milliseconds) == [1_000, 4_000, 5_000])
                #expect(changes.map(\.entitySet) == ["Items", "Items", "Orders"])
                #expect(changes.map(\.rowCount) == [1, 2, 0])
                #expect(Set(changes.map(\.id)).count == 3)
                let version = try await data.entitySetVersion(destination: "shop", entitySet: "Items")
                #expect(changes[1].version == version && changes[0].version != version)
                #expect(changes.allSatisfy { $0.destination == "shop" })

                let later = try await storage.changes.changes(since: Timestamp(milliseconds: 4_000), limit: 100)
                #expect(later.map(\.entitySet) == ["Items", "Orders"])
                let first = try await storage.changes.changes(since: Timestamp(milliseconds: 0), limit: 1)
                #expect(first.map(\.changedAt.milliseconds) == [1_000])
            }
        }
    }

    @Test("the storage sweep deletes changes older than their retention and keeps the rest", arguments: TestBackend.allCases)
    func sweepForgetsOldChanges(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let day = Duration.seconds(24 * 3600)
                let start = Timestamp(milliseconds: 1_700_000_000_000)
                try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":0}"#], now: start)
                try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":1}"#], now: start.adding(day * 6))
                let service = StorageMaintenanceService(
                    database: storage, interval: .seconds(60), eventRetention: nil, changeRetention: day * 7, logger: LogCapture.discarding)

                try await service.sweep(now: start.adding(day * 7 - .seconds(1)))
                #expect(try await storage.changes.changes(since: Timestamp(milliseconds: 0), limit: 10).count == 2)
                try await service.sweep(now: start.adding(day * 8))
                let kept = try await storage.changes.changes(since: Timestamp(milliseconds: 0), limit: 10)
                #expect(kept.map(\.changedAt) == [start.adding(day * 6)])
            }
        }
    }
}
