import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Actionable entity sets in storage, on SQLite and PostgreSQL: the server gives every row a
/// `Status` and its own `ETag`, refuses rows without an id, and the demo seeds its approvals so.
@Suite("Actionable entity sets")
struct ActionableEntitySetTests {
    static let now = Timestamp(ManualClock().now)

    /// The set `name` of destination `ops`, its items named by `ID` (no app or approver: these
    /// tests are about its rows).
    static func actionable(_ name: String) -> ActionableSet {
        ActionableSet(destination: "ops", entitySet: name, idField: "ID", apps: [], approvers: nil)
    }

    @Test("the demo seed has twelve pending approvals with server ETags, both sides of the threshold, and seeding again changes nothing", arguments: TestBackend.allCases)
    func theDemoSeedsApprovals(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let clock = ManualClock()
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: clock)
                let report = try await admin.seedDemo(password: "demo-password")
                #expect(report.entitySets.map(\.name) == ["Customers", "Products", "SalesOrders", "Approvals"])
                #expect(try await storage.actions.idField(destination: "sales", entitySet: "Approvals") == "ApprovalID")
                let page = try #require(try await storage.businessData.entityPage(destination: "sales", entitySet: "Approvals", offset: 0, limit: 50))
                #expect(page.total == 12)
                let rows = try page.rows.map { try JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8)) }
                #expect(rows.map { $0["ApprovalID"] } == (1001...1012).map { .string("PR-\($0)") })
                #expect(rows.allSatisfy { $0["Status"] == .string("pending") && $0["Currency"] == .string("EUR") })
                for row in rows {
                    #expect(try row["ETag"] == .string(ItemActionRules.itemTag(row: row)))
                }
                let amounts = rows.compactMap { ActionPolicyDocument.default.amount(inRow: $0) }
                #expect(amounts.count == 12 && amounts.filter { ActionPolicyDocument.default.requiresStepUp(amount: $0) }.count == 6)

                clock.advance(by: .seconds(60))
                let again = try await admin.seedDemo(password: "demo-password")
                #expect(again.entitySets.allSatisfy { !$0.written })
                #expect(try await storage.businessData.entityPage(destination: "sales", entitySet: "Approvals", offset: 0, limit: 50)?.rows == page.rows)
            }
        }
    }

    @Test("rows written to an actionable set get Status and the server's ETag; a writer's ETag is replaced; rows without ids change nothing", arguments: TestBackend.allCases)
    func writesArePrepared(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let data = storage.businessData
                try await data.replaceEntitySet(destination: "ops", title: "Ops", name: "Incidents", rows: [#"{"ID":"I-1","Amount":5}"#], now: Self.now)
                let plainVersion = try await data.entitySetVersion(destination: "ops", entitySet: "Incidents")
                #expect(try await storage.actions.setActionable(Self.actionable("Incidents"), now: Self.now))
                #expect(try await data.entitySetVersion(destination: "ops", entitySet: "Incidents") != plainVersion, "its rows were prepared")
                let prepared = try #require(try await storage.actions.item(at: ItemAddress(destination: "ops", entitySet: "Incidents", item: "I-1")))
                let expectedTag = try ItemActionRules.itemTag(row: prepared.row)
                #expect(prepared.status == "pending" && prepared.etag == expectedTag)
                #expect(try await !storage.actions.setActionable(Self.actionable("Incidents"), now: Self.now))

                let rows = [#"{"ETag":"\"forged\"","ID":"I-2","Status":"approved"}"#, #"{"ID":"I-3"}"#]
                #expect(try await data.replaceEntitySet(destination: "ops", title: "Ops", name: "Incidents", rows: rows, now: Self.now))
                let written = try #require(try await storage.actions.item(at: ItemAddress(destination: "ops", entitySet: "Incidents", item: "I-2")))
                #expect(written.etag != "\"forged\"" && written.status == "approved", "the writer's status stays, its ETag does not")
                #expect(try await storage.actions.item(at: ItemAddress(destination: "ops", entitySet: "Incidents", item: "I-1")) == nil)
                let version = try await data.entitySetVersion(destination: "ops", entitySet: "Incidents")

                for bad in [[#"{"Name":"no id"}"#], [#"{"ID":7}"#], [#"{"ID":"I-4"}"#, #"{"ID":"I-4"}"#]] {
                    await #expect(throws: StorageError.self) {
                        try await data.replaceEntitySet(destination: "ops", title: "Ops", name: "Incidents", rows: bad, now: Self.now)
                    }
                }
                #expect(try await data.entitySetVersion(destination: "ops", entitySet: "Incidents") == version)
                #expect(try await storage.actions.item(at: ItemAddress(destination: "ops", entitySet: "Incidents", item: "I-3")) != nil)

                try await data.replaceEntitySet(destination: "ops", title: "Ops", name: "Notes", rows: [#"{"text":"no id"}"#], now: Self.now)
                await #expect(throws: StorageError.self) {
                    try await storage.actions.setActionable(Self.actionable("Notes"), now: Self.now)
                }
                #expect(try await storage.actions.idField(destination: "ops", entitySet: "Notes") == nil, "a refused declaration is undone")
            }
        }
    }

    @Test("kept answers expire after a day; the maintenance sweep deletes them")
    func keptAnswersExpire() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let claim = ActionStore.Claim(clientID: "app", subject: "user", key: "key-0123456789abcdef", fingerprint: "f1")
                let answer = StoredActionAnswer(fingerprint: "f1", statusCode: 412, body: "{}", etag: "\"x\"")
                let first = try await storage.actions.record(answer, for: claim, now: Self.now)
                let repeated = try await storage.actions.record(answer, for: claim, now: Self.now.adding(.seconds(60)))
                #expect(!first.replayed && repeated.replayed && repeated.answer == answer)
                let dayLater = Self.now.adding(ActionStore.idempotencyWindow + .seconds(1))
                #expect(try await storage.actions.answer(for: claim, now: dayLater) == nil)
                let later = try await storage.actions.record(answer, for: claim, now: dayLater)
                #expect(!later.replayed, "the key may be used again")
                #expect(try await storage.actions.deleteExpiredAnswers(now: dayLater.adding(ActionStore.idempotencyWindow + .seconds(1))) == 1)
            }
        }
    }
}
