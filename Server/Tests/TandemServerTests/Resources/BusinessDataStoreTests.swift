import Foundation
import SQLKit
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Business data, analytics and app-configuration storage behave the same on SQLite and PostgreSQL.
@Suite("Business data storage")
struct BusinessDataStoreTests {
    /// When the rows and events here are written: a test clock's fixed instant (storage keeps the
    /// time it is given).
    static let now = Timestamp(ManualClock().now)

    @Test("an entity set is paged by position; past the end is empty; unknown sets are nil", arguments: TestBackend.allCases)
    func pagingByPosition(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let rows = (0..<7).map { #"{"n":\#($0)}"# }
                #expect(try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: rows, now: Timestamp(milliseconds: 1000)))
                let middle = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 2, limit: 3))
                #expect(middle.total == 7)
                #expect(middle.rows == [#"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
                #expect(try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Items") == middle.version)
                let tail = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 5, limit: 50))
                #expect(tail.rows == [#"{"n":5}"#, #"{"n":6}"#])
                let past = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 100, limit: 10))
                #expect(past.total == 7 && past.rows.isEmpty)
                let huge = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 1, limit: Int.max))
                #expect(huge.rows.count == 6)
                #expect(try await storage.businessData.entityPage(destination: "shop", entitySet: "Nope", offset: 0, limit: 1) == nil)
                #expect(try await storage.businessData.entityPage(destination: "nope", entitySet: "Items", offset: 0, limit: 1) == nil)
                #expect(try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Nope") == nil)
                #expect(try await storage.businessData.destinationExists("shop"))
                #expect(try await !storage.businessData.destinationExists("nope"))
            }
        }
    }

    @Test("the administration replaces a set's rows at its clock's time, moving its version; unnamed sets are refused", arguments: TestBackend.allCases)
    func administrationReplacesASet(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let clock = ManualClock()
                let admin = ServerAdministration(database: storage, clock: clock)
                #expect(try await admin.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":0}"#]))
                let first = try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Items")
                clock.advance(by: .seconds(60))
                #expect(try await !admin.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":0}"#]))
                #expect(try await admin.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: [#"{"v":1}"#]))
                #expect(try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Items") != first)
                let page = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 0, limit: 10))
                #expect(page.rows == [#"{"v":1}"#])
                let set = try #require(try await storage.businessData.destinations().first?.entitySets.first)
                #expect(set.updatedAt == Timestamp(clock.now))
                await #expect(throws: AdminError.invalidArgument("a destination and an entity set need names")) {
                    try await admin.replaceEntitySet(destination: "shop", title: "Shop", name: "", rows: [])
                }
            }
        }
    }

    @Test("replacing a set with identical rows writes nothing; different rows replace all of them", arguments: TestBackend.allCases)
    func replacementIsIdempotent(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let rows = (0..<450).map { #"{"id":\#($0)}"# }
                #expect(try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: rows, now: Timestamp(milliseconds: 1000)))
                let version = try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Items")
                #expect(try await !storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: rows, now: Timestamp(milliseconds: 2000)))
                #expect(try await storage.businessData.entitySetVersion(destination: "shop", entitySet: "Items") == version)
                let unchanged = try #require(try await storage.businessData.destinations().first?.entitySets.first)
                #expect(unchanged.updatedAt == Timestamp(milliseconds: 1000), "an identical replacement does not even touch the time")
                #expect(unchanged.rowCount == 450)

                #expect(try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop", name: "Items", rows: ["{\"id\":\"only\"}"], now: Timestamp(milliseconds: 3000)))
                let replaced = try #require(try await storage.businessData.entityPage(destination: "shop", entitySet: "Items", offset: 0, limit: 500))
                #expect(replaced.total == 1 && replaced.rows == ["{\"id\":\"only\"}"])
                #expect(replaced.version != version, "other rows, another version")
                #expect(try await storage.businessData.replaceEntitySet(destination: "shop", title: "Shop (renamed)", name: "Items", rows: ["{\"id\":\"only\"}"], now: Timestamp(milliseconds: 4000)))
                #expect(try await storage.businessData.destinations().first?.title == "Shop (renamed)")
            }
        }
    }

    @Test("destinations list their sets sorted by name with row counts", arguments: TestBackend.allCases)
    func destinationsAreListed(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                #expect(try await storage.businessData.destinations().isEmpty)
                let demo = DemoBusinessData()
                for set in demo.entitySets.reversed() {
                    try await storage.businessData.replaceEntitySet(destination: "sales", title: "Sales (demo)", name: set.name, rows: set.rows, now: Self.now)
                }
                try await storage.businessData.replaceEntitySet(destination: "archive", title: "Archive", name: "Old", rows: [], now: Self.now)
                let destinations = try await storage.businessData.destinations()
                #expect(destinations.map(\.name) == ["archive", "sales"])
                #expect(destinations[0].entitySets.map(\.rowCount) == [0])
                #expect(destinations[1].entitySets.map(\.name) == ["Approvals", "Customers", "Products", "SalesOrders"])
                #expect(destinations[1].entitySets.map(\.rowCount) == demo.entitySets.sorted { $0.name < $1.name }.map(\.rows.count))
            }
        }
    }

    @Test("events are stored once per id, in one transaction, and counted by kind, family and configuration", arguments: TestBackend.allCases)
    func eventsAreIdempotentAndCounted(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let event = { (id: String, client: String, at: Int64, kind: String?) in
                    AnalyticsEvent(id: id, clientID: client, subject: nil, name: "widget.tap", occurredAt: Timestamp(milliseconds: at),
                                   kind: kind, family: kind == nil ? nil : "systemSmall", configuration: nil, properties: "{}")
                }
                let batch = (0..<450).map { event("e\($0)", "a", 1000 + Int64($0 % 3), $0 % 3 == 0 ? nil : "k\($0 % 3)") }
                let first = try await storage.analytics.storeEvents(batch + [batch[0]], now: Self.now)
                #expect(first == EventIngestion(accepted: 450, duplicates: 1))
                let second = try await storage.analytics.storeEvents(Array(batch.prefix(10)) + [event("new", "b", 1001, "k1")], now: Self.now)
                #expect(second == EventIngestion(accepted: 1, duplicates: 10))

                let counts = try await storage.analytics.eventCounts(clientID: "a", name: "widget.tap", from: Timestamp(milliseconds: 1000), to: Timestamp(milliseconds: 1002))
                #expect(counts == [
                    AnalyticsCount(kind: nil, family: nil, configuration: nil, count: 150),
                    AnalyticsCount(kind: "k1", family: "systemSmall", configuration: nil, count: 150),
                ], "the period excludes its end (k2 happened at 1002)")
                let other = try await storage.analytics.eventCounts(clientID: "b", name: "widget.tap", from: Timestamp(milliseconds: 0), to: Timestamp(milliseconds: 9999))
                #expect(other == [AnalyticsCount(kind: "k1", family: "systemSmall", configuration: nil, count: 1)])
                #expect(try await storage.analytics.eventCounts(clientID: "a", name: "app.open", from: Timestamp(milliseconds: 0), to: Timestamp(milliseconds: 9999)).isEmpty)
            }
        }
    }

    @Test("a batch that fails halfway stores none of its events", arguments: TestBackend.allCases)
    func failingBatchIsAtomic(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let event = { (id: String) in
                    AnalyticsEvent(id: id, clientID: "a", subject: nil, name: "x", occurredAt: Timestamp(milliseconds: 1), kind: nil,
                                   family: nil, configuration: nil, properties: "{}")
                }
                let good = (0..<250).map { event("g\($0)") }
                // A trigger refuses the event "boom", which sits in the second INSERT, after the first one succeeded.
                try await storage.connector.withConnection { db in
                    switch storage.connector.dialect {
                    case .sqlite:
                        try await db.raw("CREATE TRIGGER refuse_boom BEFORE INSERT ON analytics_events WHEN NEW.id = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END").run()
                    case .postgres:
                        try await db.raw("CREATE FUNCTION refuse_boom() RETURNS trigger AS $$ BEGIN IF NEW.id = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql").run()
                        try await db.raw("CREATE TRIGGER refuse_boom BEFORE INSERT ON analytics_events FOR EACH ROW EXECUTE FUNCTION refuse_boom()").run()
                    }
                }
                await #expect(throws: StorageError.self) {
                    try await storage.analytics.storeEvents(good + [event("boom")], now: Self.now)
                }
                let count = try await storage.connector.withConnection { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM analytics_events").first()?.decode(column: "n", as: Int.self)
                }
                #expect(count == 0)
                #expect(try await storage.analytics.storeEvents(good, now: Self.now) == EventIngestion(accepted: 250, duplicates: 0))
            }
        }
    }

    @Test("an app's passcode policy round-trips; apps without one have none; unknown apps are refused", arguments: TestBackend.allCases)
    func passcodePolicies(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                try await ServerAdministration(database: storage).createApp(
                    clientID: "a", name: "A", redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                #expect(try await storage.apps.passcodePolicy(clientID: "a") == nil)
                let policy = PasscodePolicyDocument(minimumLength: 8, requiredCharacterClasses: [.digit, .uppercase], maximumAttempts: 6, onLimit: .wipe)
                try await storage.apps.setPasscodePolicy(policy, clientID: "a", now: Self.now)
                #expect(try await storage.apps.passcodePolicy(clientID: "a") == policy)
                let locking = PasscodePolicyDocument(minimumLength: 4, onLimit: .lock(seconds: 60))
                try await storage.apps.setPasscodePolicy(locking, clientID: "a", now: Self.now)
                #expect(try await storage.apps.passcodePolicy(clientID: "a") == locking)
                await #expect(throws: StorageError.notFound("app \"zzz\"")) {
                    try await storage.apps.setPasscodePolicy(policy, clientID: "zzz", now: Self.now)
                }
            }
        }
    }
}
