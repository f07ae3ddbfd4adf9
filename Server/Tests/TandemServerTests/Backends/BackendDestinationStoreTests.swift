import Foundation
import TandemBackends
import TandemServerTestSupport
import Testing

@testable import TandemServer

/// Backend destinations kept on SQLite and PostgreSQL: saved, replaced, listed, removed; a name
/// is a stored destination's or a backend's, never both, whichever came first.
@Suite("Backend destination store")
struct BackendDestinationStoreTests {
    static let now = Timestamp(milliseconds: 1_894_060_800_000)

    static func destination(_ name: String, title: String = "ERP") throws -> BackendDestination {
        let mapping = EntitySetMapping(protocolKind: .rest, items: try JSONPointer("/results"), id: try FieldMapping("/id", type: .string))
        return BackendDestination(
            name: name, title: title, protocolKind: .rest, baseURL: "https://erp.example.com/api/",
            authentication: .userToken(audience: "https://erp.example.com"),
            entitySets: [BackendEntitySet(name: "Orders", path: "orders/", mapping: mapping)])
    }

    @Test("saved, replaced, listed and removed", arguments: TestBackend.allCases)
    func lifecycle(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let store = storage.backendDestinations
                let (erp, renamed, crm) = (try Self.destination("erp"), try Self.destination("erp", title: "ERP (new)"), try Self.destination("crm"))
                let first = try await store.save(erp, now: Self.now)
                let second = try await store.save(renamed, now: Self.now)
                let third = try await store.save(crm, now: Self.now)
                #expect(first == .created && second == .replaced && third == .created)
                let title = try await store.destination(named: "erp")?.title
                let names = try await store.destinations().map(\.name)
                #expect(title == "ERP (new)" && names == ["crm", "erp"])
                let removed = try await store.remove(named: "crm")
                let removedAgain = try await store.remove(named: "crm")
                let gone = try await store.destination(named: "crm")
                #expect(removed && !removedAgain && gone == nil)
            }
        }
    }

    @Test("a stored destination's name is refused for a backend, and a backend's for stored rows", arguments: TestBackend.allCases)
    func namesDoNotCross(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                _ = try await storage.businessData.replace(
                    destination: "sales", title: "Sales", name: "Orders", rows: [#"{"id":1}"#], now: Self.now, precondition: .none)
                let taken = try await storage.backendDestinations.save(try Self.destination("sales"), now: Self.now)
                let sales = try await storage.backendDestinations.destination(named: "sales")
                #expect(taken == .nameTaken && sales == nil)

                let created = try await storage.backendDestinations.save(try Self.destination("erp"), now: Self.now)
                #expect(created == .created)
                await #expect(throws: StorageError.self) {
                    _ = try await storage.businessData.replace(
                        destination: "erp", title: "ERP", name: "Orders", rows: [#"{"id":1}"#], now: Self.now, precondition: .none)
                }
                let stored = try await storage.connector.withConnection { db in
                    try await db.raw("SELECT name FROM destinations WHERE name = 'erp'").all().count
                }
                #expect(stored == 0, "the refused write left nothing behind")
            }
        }
    }
}
