import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `PUT /v1/destinations/{destination}/{entitySet}`: only an app granted writes to the
/// destination writes its business data (introspection rights write nothing), and only knowing
/// the set's current version (`If-Match`); a write replaces the rows readers page through, moves
/// the set's ETag, records one change and one audit line, and leaves decided items decided; bad
/// bodies change nothing.
@Suite("Resource servers writing business data")
struct EntitySetWriteEndpointTests {
    @Test("a resource server's write replaces the rows readers see, moves the ETag and records one change and one audit line", arguments: TestBackend.allCases)
    func aResourceServerReplacesASet(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let key = try await Self.writerKey(database, destinations: ["sales"])
            let customersBefore = try await Self.customers(database)
            let read = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let before = try await client.get("v1/destinations/sales/Customers?limit=5", headers: read)
            let tag = try #require(before.header("ETag"))

            let body = #"{"title": "Sales (demo)", "rows": [{"CustomerID": "C9", "CompanyName": "Nine/Co"}, {"b": 2, "a": [1, true, null]}]}"#
            // The set exists: a write that does not name its version is refused, and learns it.
            let blind = try await client.put("v1/destinations/sales/Customers", body: Data(body.utf8), headers: ["X-API-Key": key])
            #expect(blind.status == 428 && blind.object["error"] as? String == "precondition_required")
            let version = try #require(blind.header("ETag"))
            let stale = try await client.put(
                "v1/destinations/sales/Customers", body: Data(body.utf8), headers: ["X-API-Key": key, "If-Match": #""0000""#])
            #expect(stale.status == 412 && stale.header("ETag") == version)
            #expect(try await Self.customers(database) == customersBefore, "refused writes change nothing")

            let written = try await client.put(
                "v1/destinations/sales/Customers", body: Data(body.utf8), headers: ["X-API-Key": key, "If-Match": version])
            #expect(written.status == 200, "\(String(decoding: written.body, as: UTF8.self))")
            #expect(written.object["changed"] as? Bool == true)
            #expect(written.object["row_count"] as? Int == 2)
            #expect(written.header("Cache-Control") == "no-store")

            let after = try await client.get("v1/destinations/sales/Customers?limit=5", headers: read)
            #expect(after.header("ETag") != tag)
            let items = try #require(after.object["items"] as? [[String: Any]])
            #expect(items.count == 2 && items.first?["CompanyName"] as? String == "Nine/Co")
            let stored = try await database.withStorage { storage in
                try #require(try await storage.businessData.entityPage(destination: "sales", entitySet: "Customers", offset: 0, limit: 5))
            }
            #expect(stored.rows == [#"{"CompanyName":"Nine/Co","CustomerID":"C9"}"#, #"{"a":[1,true,null],"b":2}"#], "canonical: keys sorted, slashes as sent")
            #expect(written.object["version"] as? String == stored.version)
            #expect(written.header("ETag") == "\"\(stored.version)\"")

            let again = try await client.put(
                "v1/destinations/sales/Customers", body: Data(body.utf8), headers: ["X-API-Key": key, "If-Match": try #require(written.header("ETag"))])
            #expect(again.status == 200 && again.object["changed"] as? Bool == false)
            let fresh = try await client.put(
                "v1/destinations/sales/Brand-new", body: Data(body.utf8), headers: ["X-API-Key": key, "If-None-Match": "*"])
            #expect(fresh.status == 200, "a new set is written without a version")
            let notNew = try await client.put(
                "v1/destinations/sales/Brand-new", body: Data(body.utf8), headers: ["X-API-Key": key, "If-None-Match": "*"])
            #expect(notNew.status == 412 && notNew.header("ETag") == fresh.header("ETag"), "If-None-Match: * on a set that exists (RFC 9110 §13.1.2)")

            try await database.withStorage { storage in
                let changes = try await storage.changes.changes(since: Timestamp(milliseconds: 0), limit: 100)
                #expect(changes.filter { $0.entitySet == "Customers" }.last?.version == stored.version)
                #expect(changes.filter { $0.entitySet == "Customers" && $0.version == stored.version }.count == 1)
                let audit = try await storage.audit.auditEvents(clientID: "feed", limit: 10).filter { $0.detail.contains("Customers") }
                #expect(audit.map(\.kind) == ["data.replaced"])
                #expect(audit.first?.detail.contains("sales/Customers: 2 rows") == true)
            }
        }
    }

    @Test("users' tokens, introspection rights, another destination's writer, revoked and missing keys never write; nothing changes")
    func onlyTheDestinationsWritersWrite() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            let body = Data(#"{"title": "Sales (demo)", "rows": [{"x": 1}]}"#.utf8)
            let path = "v1/destinations/sales/Customers"
            let before = try await Self.customers(database)

            let user = try await client.put(path, body: body, headers: ["Authorization": "Bearer \(try await fixture.accessToken())"])
            #expect(user.status == 401 && user.object["error"] as? String == "invalid_token")
            let none = try await client.put(path, body: body)
            #expect(none.status == 401 && none.header("WWW-Authenticate") != nil)
            let appKey = try await client.put(path, body: body, headers: ["X-API-Key": fixture.apiKey])
            #expect(appKey.status == 403 && appKey.object["error"] as? String == "insufficient_scope", "the demo app's shipped key")
            let introspector = try await database.withStorage { storage in
                let admin = ServerAdministration(database: storage)
                try await admin.createApp(clientID: "introspector", name: "Introspector", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
                try await admin.setResourceServer(clientID: "introspector", audiences: [OAuthScope.apiAudience])
                return try await admin.createAPIKey(clientID: "introspector")
            }
            let introspecting = try await client.put(path, body: body, headers: ["X-API-Key": introspector])
            #expect(introspecting.status == 403, "introspection rights write nothing")
            let otherDestination = try await Self.writerKey(database, destinations: ["billing"], clientID: "billing-feed")
            #expect(try await client.put(path, body: body, headers: ["X-API-Key": otherDestination]).status == 403)
            let revoked = try await Self.writerKey(database, destinations: ["sales"], clientID: "revoked-feed")
            try await database.withStorage { storage in
                for record in try await storage.apps.apiKeys(clientID: "revoked-feed") {
                    _ = try await storage.apps.revokeAPIKey(id: record.id, clientID: "revoked-feed", now: Timestamp(fixture.clock.now))
                }
            }
            #expect(try await client.put(path, body: body, headers: ["X-API-Key": revoked]).status == 401)
            #expect(try await client.put(path, body: body, headers: ["X-API-Key": "tdk_made-up"]).status == 401)

            #expect(try await Self.customers(database) == before)
        }
    }

    @Test("malformed bodies, rows that are not objects, bad names and oversized bodies are refused and change nothing", arguments: [
        (#"not json"#, 400), (#"[]"#, 400), (#"{"rows": []}"#, 400), (#"{"title": "", "rows": []}"#, 400),
        (#"{"title": "T", "rows": {}}"#, 400), (#"{"title": "T", "rows": [{"ok": 1}, 2]}"#, 400), (#"{"title": "T", "rows": [[]]}"#, 400),
    ])
    func badBodiesChangeNothing(body: String, status: Int) async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, database in
            let key = try await Self.writerKey(database, destinations: ["sales"])
            let before = try await Self.customers(database)
            let answer = try await client.put("v1/destinations/sales/Customers", body: Data(body.utf8), headers: ["X-API-Key": key])
            #expect(answer.status == status && answer.object["error"] as? String == "invalid_request", "\(body)")
            #expect(try await Self.customers(database) == before)
        }
    }

    @Test("a name outside letters, digits, '.', '_' and '-', or a body past the limit, is refused")
    func badNamesAndOversizedBodies() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, database in
            let key = try await Self.writerKey(database, destinations: ["sales"])
            let body = Data(#"{"title": "T", "rows": []}"#.utf8)
            #expect(try await client.put("v1/destinations/sales/Cust%20omers", body: body, headers: ["X-API-Key": key]).status == 400)
            #expect(try await client.put("v1/destinations/sa%0Ales/Customers", body: body, headers: ["X-API-Key": key]).status == 400)
            let huge = Data(#"{"title": "T", "rows": [{"x": ""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 9 * 1024 * 1024) + Data(#""}]}"#.utf8)
            #expect(try await client.put("v1/destinations/sales/Customers", body: huge, headers: ["X-API-Key": key]).status == 413)
            #expect(URLSafeName.isValid("Sales_Orders-2.0"))
            #expect(!URLSafeName.isValid(String(repeating: "a", count: 101)))
            #expect(!URLSafeName.isValid("Ünïcode"))
        }
    }

    @Test("a whole-set write keeps decided items decided: their Status, DecidedBy and DecidedAt are the server's", arguments: TestBackend.allCases)
    func decidedItemsStayDecided(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let item = ActionFixture.lowValue
            let shown = try await fixture.item(item)
            #expect(try await fixture.act(.approve, on: item, token: token, key: ActionFixture.newKey(), ifMatch: shown.etag).status == 200)
            let decided = try await fixture.item(item)

            let key = try await Self.writerKey(fixture.database, destinations: ["sales"])
            var rows = try await fixture.database.withStorage { storage in
                try #require(try await storage.businessData.entityPage(destination: "sales", entitySet: "Approvals", offset: 0, limit: 100)?.rows)
            }.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
            for index in rows.indices {
                rows[index]["Status"] = "pending"
                rows[index]["DecidedBy"] = "someone else"
                rows[index]["DecidedAt"] = "2001-01-01T00:00:00Z"
            }
            let body = try JSONSerialization.data(withJSONObject: ["title": "Sales (demo)", "rows": rows])
            let version = try #require(try await fixture.client.put(
                "v1/destinations/sales/Approvals", body: body, contentType: "application/json", headers: ["X-API-Key": key]).header("ETag"))
            let written = try await fixture.client.put(
                "v1/destinations/sales/Approvals", body: body, contentType: "application/json", headers: ["X-API-Key": key, "If-Match": version])
            #expect(written.status == 200)

            let kept = try await fixture.item(item)
            #expect(kept.status == "approved" && kept.row["DecidedBy"] == decided.row["DecidedBy"] && kept.row["DecidedAt"] == decided.row["DecidedAt"])
            let pending = try await fixture.item(ActionFixture.highValue)
            #expect(pending.status == "pending" && pending.row["DecidedBy"] == nil && pending.row["DecidedAt"] == nil, "a writer names no decider")
        }
    }

    /// Makes an API-key app `clientID` the writer of `destinations` and returns one of its keys.
    static func writerKey(_ database: TestDatabase, destinations: Set<String>, clientID: String = "feed") async throws -> String {
        try await database.withStorage { storage in
            let admin = ServerAdministration(database: storage)
            try await admin.createApp(clientID: clientID, name: clientID, redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
            try await admin.setWriter(clientID: clientID, destinations: destinations)
            return try await admin.createAPIKey(clientID: clientID)
        }
    }

    /// The demo's Customers rows as stored.
    private static func customers(_ database: TestDatabase) async throws -> [String] {
        try await database.withStorage { storage in
            try await storage.businessData.entityPage(destination: "sales", entitySet: "Customers", offset: 0, limit: 1000)?.rows ?? []
        }
    }
}
