import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `tandem admin destination`: a backend destination saved from its document, listed, replaced,
/// refused without touching what was saved, removed; every change in the audit log.
@Suite("tandem admin destination")
struct AdminDestinationCommandTests {
    static let document = """
        {"name":"erp","title":"ERP","protocolKind":"rest","baseURL":"https://erp.example.com/api/",
         "authentication":{"mode":"user-token","audience":"https://erp.example.com"},
         "entitySets":[{"name":"Orders","path":"orders/","query":[],
           "mapping":{"protocolKind":"rest","items":"/results","id":{"pointer":"/id"},"title":{"pointer":"/customer/name"}}}]}
        """

    @Test("set, list, a refused set that changes nothing, remove; audited")
    func lifecycle() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let directory = try TemporaryDirectory()
            let file = directory.url.appendingPathComponent("erp.json")
            try Data(Self.document.utf8).write(to: file)
            let admin = { (arguments: [String]) in try await TandemExecutable.run(["admin", "destination"] + arguments + ["--database", database.argument]) }

            let created = try await admin(["set", "--file", file.path])
            #expect(created.status == 0 && created.stdout == "created\n", "\(created.stderr)")
            let replaced = try await admin(["set", "--file", file.path])
            #expect(replaced.stdout == "replaced\n")

            let broken = directory.url.appendingPathComponent("broken.json")
            try Data(Self.document.replacingOccurrences(of: "https://erp.example.com/api/", with: "http://erp.example.com/api/").utf8).write(to: broken)
            let refused = try await admin(["set", "--file", broken.path])
            #expect(refused.status != 0 && refused.stderr.contains("https only"), "\(refused.stderr)")

            let listed = try await admin(["list"])
            let lines = listed.stdout.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("\"baseURL\":\"https://erp.example.com/api/\""), "\(listed.stdout)")

            #expect(try await admin(["remove", "--name", "erp"]).stdout == "removed\n")
            #expect(try await admin(["remove", "--name", "erp"]).status != 0)
            #expect(try await admin(["list"]).stdout.isEmpty)

            let audit = try await TandemExecutable.run(["admin", "audit", "--database", database.argument])
            #expect(audit.stdout.components(separatedBy: "destination.saved").count - 1 == 2)
            #expect(audit.stdout.contains("destination.removed"))
        }
    }
}
