import Foundation
import SQLKit
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// `POST /v1/events` and `GET /v1/analytics/summary` through the server built in process.
@Suite("Analytics endpoints over HTTP")
struct EventsEndpointTests {
    /// A `widget.tap` event as a client sends it.
    static func tap(id: UUID = UUID(), at time: String = "2025-06-01T10:00:00Z", kind: String = "orders", family: String = "systemSmall",
                    configuration: String = "sales/SalesOrders") -> [String: Any] {
        ["id": id.uuidString, "name": "widget.tap", "timestamp": time,
         "properties": ["kind": kind, "family": family, "configuration": configuration, "target": "order/SO500001"]]
    }

    static func batch(_ events: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["events": events])
    }

    static func storedEventCount(_ database: TestDatabase) async throws -> Int {
        try await database.withStorage { storage in
            try await storage.connector.withConnection { db in
                try await db.raw("SELECT COUNT(*) AS n FROM analytics_events").first()?.decode(column: "n", as: Int.self) ?? -1
            }
        }
    }

    @Test("a resent batch is stored once: the response counts accepted and duplicates", arguments: TestBackend.allCases)
    func ingestionIsIdempotent(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let repeated = UUID()
            let events = [Self.tap(id: repeated), Self.tap(), Self.tap(), Self.tap(id: repeated)]
            let first = try await client.post("v1/events", body: try Self.batch(events), contentType: "application/json", headers: auth)
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            #expect(first.json["accepted"] == "3")
            #expect(first.json["duplicates"] == "1", "an id repeated within the batch counts once")
            let again = try await client.post("v1/events", body: try Self.batch(events), contentType: "application/json", headers: auth)
            #expect(again.status == 200)
            #expect(again.json["accepted"] == "0")
            #expect(again.json["duplicates"] == "4")
            let withNew = try await client.post(
                "v1/events", body: try Self.batch(Array(events.prefix(2)) + [Self.tap()]), contentType: "application/json",
                headers: ["X-API-Key": fixture.apiKey])
            #expect(withNew.json["accepted"] == "1")
            #expect(withNew.json["duplicates"] == "2")
            #expect(try await Self.storedEventCount(database) == 4)
        }
    }

    @Test("broken JSON, a bad event anywhere in the batch, or too many events: 400 and nothing written")
    func invalidBatchesWriteNothing() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            var badTimestamp = Self.tap()
            badTimestamp["timestamp"] = "yesterday"
            var badKind = Self.tap()
            badKind["properties"] = ["kind": 42]
            let cases: [(name: String, body: Data, mentions: String)] = [
                ("broken JSON", Data(#"{"events":[{"id":"#.utf8), "JSON"),
                ("not an object", Data("[1,2,3]".utf8), "batch"),
                ("no events", try Self.batch([]), "empty"),
                ("bad id last", try Self.batch([Self.tap(), Self.tap(), ["id": "nope", "name": "widget.tap", "timestamp": "2025-06-01T10:00:00Z"]]), "events[2].id"),
                ("bad timestamp", try Self.batch([Self.tap(), badTimestamp]), "events[1].timestamp"),
                ("bad name", try Self.batch([["id": UUID().uuidString, "name": "widget tap!", "timestamp": "2025-06-01T10:00:00Z"]]), "events[0].name"),
                ("missing name", try Self.batch([["id": UUID().uuidString, "timestamp": "2025-06-01T10:00:00Z"]]), "name"),
                ("non-string kind", try Self.batch([badKind]), "kind"),
                ("too many", try Self.batch((0..<501).map { _ in ["id": UUID().uuidString, "name": "a", "timestamp": "2025-06-01T10:00:00Z"] }), "500"),
            ]
            for testCase in cases {
                let response = try await client.post("v1/events", body: testCase.body, contentType: "application/json", headers: auth)
                #expect(response.status == 400, "\(testCase.name)")
                #expect(response.json["error"] == "invalid_request", "\(testCase.name)")
                #expect(response.json["error_description"]?.contains(testCase.mentions) == true, "\(testCase.name): \(response.json)")
            }
            let wrongType = try await client.post("v1/events", body: try Self.batch([Self.tap()]), contentType: "text/plain", headers: auth)
            #expect(wrongType.status == 415)
            #expect(try await Self.storedEventCount(database) == 0)
        }
    }

    @Test("a body over the size limit gets 413 and writes nothing, declared or streamed")
    func oversizedBodyIsRefused() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let big = try Self.batch((0..<400).map { _ in
                var event = Self.tap()
                event["properties"] = ["kind": "orders", "padding": String(repeating: "x", count: 200)]
                return event
            })
            #expect(big.count > 64 * 1024)
            let response = try await client.post("v1/events", body: big, contentType: "application/json", headers: auth)
            #expect(response.status == 413)
            #expect(response.json["error"] == "invalid_request")
            // A body without a Content-Length needs a real socket.
            let streamed = try await InProcessServer.test(database, .live) { live in
                try await live.postStreamed("v1/events", body: big, contentType: "application/json", headers: auth)
            }
            #expect(streamed.status == 413, "a body without Content-Length is cut off while it is read")
            #expect(try await Self.storedEventCount(database) == 0)
        }
    }

    @Test("events need events.write: a read-only token and an extension grant get 403, no credential 401")
    func eventsNeedTheirScope() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            let body = try Self.batch([Self.tap()])
            let readOnly = try await fixture.accessToken(scope: OAuthScope.dataRead)
            let forbidden = try await client.post("v1/events", body: body, contentType: "application/json", headers: ["Authorization": "Bearer \(readOnly)"])
            #expect(forbidden.status == 403)
            #expect(forbidden.json["error"] == "insufficient_scope")
            let extensionToken = try await fixture.accessToken(scope: OAuthScope.extensionGrant, audience: OAuthScope.extensionAudience)
            let fromExtension = try await client.post("v1/events", body: body, contentType: "application/json", headers: ["Authorization": "Bearer \(extensionToken)"])
            #expect(fromExtension.status == 403, "an extension grant is valid but read-only")
            #expect(fromExtension.json["error"] == "insufficient_scope")
            let anonymous = try await client.post("v1/events", body: body, contentType: "application/json", headers: [:])
            #expect(anonymous.status == 401)
            #expect(try await Self.storedEventCount(database) == 0)
        }
    }

    @Test("the summary counts one app's events of one name in the period by kind, family and configuration", arguments: TestBackend.allCases)
    func summaryAggregates(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, _ in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            var events: [[String: Any]] = []
            events += (0..<3).map { _ in Self.tap(kind: "orders", family: "systemSmall", configuration: "sales/SalesOrders") }
            events += (0..<2).map { _ in Self.tap(kind: "orders", family: "systemMedium", configuration: "sales/SalesOrders") }
            events += [Self.tap(at: "2025-06-01T12:00:00.250+02:00", kind: "customers", family: "systemSmall", configuration: "sales/Customers")]
            events += [Self.tap(at: "2025-05-01T10:00:00Z")]  // before the period
            events += [["id": UUID().uuidString, "name": "widget.tap", "timestamp": "2025-06-02T08:00:00Z"]]  // no properties
            events += [["id": UUID().uuidString, "name": "app.open", "timestamp": "2025-06-02T08:00:00Z"]]  // another name
            let stored = try await client.post("v1/events", body: try Self.batch(events), contentType: "application/json", headers: auth)
            #expect(stored.json["accepted"] == "9")
            // Another app's events are not counted in the demo app's summary.
            let kiosk = try await client.post(
                "v1/events", body: try Self.batch([Self.tap(), Self.tap()]), contentType: "application/json", headers: ["X-API-Key": fixture.apiKey])
            #expect(kiosk.json["accepted"] == "2")

            let response = try await client.get(
                "v1/analytics/summary?from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z&name=widget.tap", headers: auth)
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            let object = response.object
            #expect(object["client_id"] as? String == ServerAdministration.demoClientID)
            #expect(object["name"] as? String == "widget.tap")
            #expect(object["from"] as? String == "2025-06-01T00:00:00.000Z")
            #expect(object["total"] as? Int == 7)
            let groups = try #require(object["groups"] as? [[String: Any]])
            let summary = groups.map { group in
                [group["kind"] as? String ?? "-", group["family"] as? String ?? "-", group["configuration"] as? String ?? "-", "\(group["count"] as? Int ?? 0)"]
            }
            #expect(summary == [
                ["orders", "systemSmall", "sales/SalesOrders", "3"],
                ["orders", "systemMedium", "sales/SalesOrders", "2"],
                ["-", "-", "-", "1"],
                ["customers", "systemSmall", "sales/Customers", "1"],
            ])
            #expect(groups[2]["kind"] is NSNull, "absent properties are null")

            let kioskSummary = try await client.get(
                "v1/analytics/summary?from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z", headers: ["X-API-Key": fixture.apiKey])
            #expect(kioskSummary.object["total"] as? Int == 2)

            let badPeriod = try await client.get("v1/analytics/summary?from=2025-07-01T00:00:00Z&to=2025-06-01T00:00:00Z", headers: auth)
            #expect(badPeriod.status == 400)
            let badDate = try await client.get("v1/analytics/summary?from=June", headers: auth)
            #expect(badDate.status == 400)
            #expect(badDate.json["error"] == "invalid_request")
            let anonymous = try await client.get("v1/analytics/summary", headers: [:])
            #expect(anonymous.status == 401)
        }
    }
}
