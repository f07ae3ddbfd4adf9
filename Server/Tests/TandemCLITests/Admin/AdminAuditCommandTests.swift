import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `tandem admin audit` prints the audit log, newest first, one JSON object per line, filtered
/// by app when asked.
@Suite("tandem admin audit")
struct AdminAuditCommandTests {
    @Test("the audit log, newest first, per app", arguments: TestBackend.allCases)
    func printsTheAuditLog(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                for (index, (kind, clientID)) in [("sso.issued", "sales"), ("sso.reuse", "sales"), ("sso.issued", "hr")].enumerated() {
                    try await storage.audit.appendAuditEvent(AuditEvent(
                        id: "event-\(index)", at: Timestamp(milliseconds: 1_800_000_000_000 + Int64(index) * 1000), kind: kind,
                        clientID: clientID, userID: "u-1", source: "127.0.0.1", detail: "passcode p-\(index)"))
                }
            }
            let all = try await TandemExecutable.run(["admin", "audit", "--database", database.argument])
            #expect(all.status == 0, "\(all.stderr)")
            let lines = all.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(lines.map { $0["kind"] as? String } == ["sso.issued", "sso.reuse", "sso.issued"])
            #expect(lines.map { $0["client_id"] as? String } == ["hr", "sales", "sales"])
            #expect(lines.first?["at"] as? String == "2027-01-15T08:00:02Z")

            let sales = try await TandemExecutable.run(["admin", "audit", "--database", database.argument, "--client-id", "sales", "--limit", "1"])
            #expect(sales.stdout.split(separator: "\n").count == 1)
            #expect(sales.stdout.contains("sso.reuse"))
            #expect(try await TandemExecutable.run(["admin", "audit", "--database", database.argument, "--limit", "0"]).status != 0)
        }
    }
}
