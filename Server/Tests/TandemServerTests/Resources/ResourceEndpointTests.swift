import Foundation
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// `GET /v1/destinations…` through the server built in process on seeded demo data.
@Suite("Resource endpoints over HTTP")
struct ResourceEndpointTests {
    @Test("pages walk the whole entity set in order, with total, limit, offset and next", arguments: TestBackend.allCases)
    func pagingWalksTheWholeSet(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, _ in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let expected = try #require(DemoBusinessData().entitySets.first { $0.name == "Customers" }).rows
            var ids: [String] = []
            var path: String? = "v1/destinations/sales/Customers?limit=25"
            var pages = 0
            while let next = path {
                let response = try await client.get(next, headers: auth)
                #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
                let object = response.object
                #expect(object["total"] as? Int == expected.count)
                #expect(object["limit"] as? Int == 25)
                #expect(object["offset"] as? Int == pages * 25)
                let items = try #require(object["items"] as? [[String: Any]])
                #expect(items.count == min(25, expected.count - pages * 25))
                ids += items.compactMap { $0["CustomerID"] as? String }
                path = (object["next"] as? String).map { String($0.dropFirst()) }
                pages += 1
                try #require(pages < 10)
            }
            #expect(pages == 3)
            let expectedIDs = try expected.map { row in
                try #require(try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])["CustomerID"] as? String
            }
            #expect(ids == expectedIDs)

            let past = try await client.get("v1/destinations/sales/Customers?offset=1000", headers: auth)
            #expect(past.status == 200)
            #expect((past.object["items"] as? [Any])?.isEmpty == true)
            #expect(past.object["next"] is NSNull)
            #expect(past.object["total"] as? Int == expected.count)

            let defaults = try await client.get("v1/destinations/sales/SalesOrders", headers: auth)
            #expect(defaults.object["limit"] as? Int == 50)
            #expect(defaults.object["offset"] as? Int == 0)
            #expect(defaults.object["next"] as? String == "/v1/destinations/sales/SalesOrders?limit=50&offset=50")
            let order = try #require((defaults.object["items"] as? [[String: Any]])?.first)
            #expect((order["SalesOrderID"] as? String)?.hasPrefix("SO") == true)
            #expect((order["GrossAmount"] as? String)?.range(of: #"^\d+\.\d{2}$"#, options: .regularExpression) != nil)
        }
    }

    @Test("a 200 carries a strong ETag of its body; If-None-Match with it gets 304 and no body")
    func etagAndNotModified() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, _ in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let first = try await client.get("v1/destinations/sales/Products?limit=10", headers: auth)
            #expect(first.status == 200)
            #expect(first.header("Cache-Control") == "private, no-cache")
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            let again = try await client.get("v1/destinations/sales/Products?limit=10", headers: auth)
            #expect(again.header("ETag") == tag, "the same body has the same tag")
            #expect(again.body == first.body)

            let notModified = try await client.get("v1/destinations/sales/Products?limit=10", headers: auth.merging(["If-None-Match": tag]) { $1 })
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == tag)
            let listed = try await client.get(
                "v1/destinations/sales/Products?limit=10", headers: auth.merging(["If-None-Match": "\"other\", W/\(tag)"]) { $1 })
            #expect(listed.status == 304, "a tag in a list, weak-compared, matches")

            let otherPage = try await client.get("v1/destinations/sales/Products?limit=10&offset=10", headers: auth.merging(["If-None-Match": tag]) { $1 })
            #expect(otherPage.status == 200, "another page has another body and tag")
            #expect(otherPage.header("ETag") != tag)

            let list = try await client.get("v1/destinations", headers: auth)
            #expect(list.status == 200)
            let listTag = try #require(list.header("ETag"))
            let listAgain = try await client.get("v1/destinations", headers: auth.merging(["If-None-Match": listTag]) { $1 })
            #expect(listAgain.status == 304)
        }
    }

    @Test("a page served again from memory still changes as soon as its entity set does", arguments: TestBackend.allCases)
    func renderedPagesFollowTheData(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let path = "v1/destinations/sales/Products?limit=5"
            let first = try await client.get(path, headers: auth)
            let second = try await client.get(path, headers: auth)
            #expect(second.body == first.body)
            let tag = try #require(first.header("ETag"))
            try await database.withStorage { storage in
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales (demo)", name: "Products", rows: [#"{"ProductID":"P999"}"#], now: Timestamp(fixture.clock.now))
            }
            let changed = try await client.get(path, headers: auth.merging(["If-None-Match": tag]) { $1 })
            #expect(changed.status == 200, "the old tag no longer matches")
            #expect(changed.header("ETag") != tag)
            #expect(changed.object["total"] as? Int == 1)
            #expect((changed.object["items"] as? [[String: Any]])?.first?["ProductID"] as? String == "P999")
        }
    }

    @Test("the destination list names sales with its three entity sets and their counts")
    func destinationList() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, _ in
            let response = try await client.get("v1/destinations", headers: ["X-API-Key": fixture.apiKey])
            #expect(response.status == 200)
            let destinations = try #require(response.object["destinations"] as? [[String: Any]])
            #expect(destinations.count == 1)
            let sales = try #require(destinations.first)
            #expect(sales["name"] as? String == "sales")
            #expect(sales["title"] as? String == "Sales (demo)")
            let sets = try #require(sales["entity_sets"] as? [[String: Any]])
            #expect(sets.map { $0["name"] as? String } == ["Approvals", "Customers", "Products", "SalesOrders"])
            let demo = DemoBusinessData().entitySets.sorted { $0.name < $1.name }
            #expect(sets.map { $0["count"] as? Int } == demo.map(\.rows.count))
            #expect(sets.first?["href"] as? String == "/v1/destinations/sales/Approvals")
        }
    }

    @Test("unknown destinations and entity sets get 404; bad paging gets 400; both as JSON errors")
    func notFoundAndBadPaging() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, _ in
            let auth = ["Authorization": "Bearer \(try await fixture.accessToken())"]
            let cases: [(path: String, status: Int, error: String, mentions: String)] = [
                ("v1/destinations/nowhere/Customers", 404, "not_found", "nowhere"),
                ("v1/destinations/sales/Invoices", 404, "not_found", "Invoices"),
                ("v1/destinations/sales/Customers?limit=0", 400, "invalid_request", "limit"),
                ("v1/destinations/sales/Customers?limit=501", 400, "invalid_request", "limit"),
                ("v1/destinations/sales/Customers?limit=ten", 400, "invalid_request", "limit"),
                ("v1/destinations/sales/Customers?offset=-1", 400, "invalid_request", "offset"),
                ("v1/destinations/sales/Customers?offset=1&offset=2", 400, "invalid_request", "offset"),
            ]
            for testCase in cases {
                let response = try await client.get(testCase.path, headers: auth)
                #expect(response.status == testCase.status, "\(testCase.path)")
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(response.json["error"] == testCase.error, "\(testCase.path)")
                #expect(response.json["error_description"]?.contains(testCase.mentions) == true, "\(testCase.path): \(response.json)")
                #expect(response.header("ETag") == nil)
            }
        }
    }

    @Test("bearer tokens: valid ones of either audience pass; missing, expired, forged, foreign and under-scoped ones do not")
    func bearerTokens() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, _ in
            let path = "v1/destinations/sales/Products?limit=1"
            let get = { (headers: [String: String]) in try await client.get(path, headers: headers) }

            #expect(try await get(["Authorization": "Bearer \(try await fixture.accessToken())"]).status == 200)
            let extensionToken = try await fixture.accessToken(scope: OAuthScope.extensionGrant, audience: OAuthScope.extensionAudience)
            #expect(try await get(["Authorization": "Bearer \(extensionToken)"]).status == 200, "extension grants read")

            let refused: [(name: String, headers: [String: String])] = [
                ("missing", [:]),
                ("expired", ["Authorization": "Bearer \(try await fixture.accessToken(issuedAt: Timestamp(fixture.clock.now).adding(.seconds(-600))))"]),
                ("another key", ["Authorization": "Bearer \(try await fixture.accessTokenFromAnotherKey())"]),
                ("tampered payload", ["Authorization": "Bearer \(try await fixture.tamperedAccessToken())"]),
                ("another issuer", ["Authorization": "Bearer \(try await fixture.accessToken(issuer: "https://evil.test"))"]),
                ("another audience", ["Authorization": "Bearer \(try await fixture.accessToken(audience: "someone-else"))"]),
                ("not bearer", ["Authorization": "Basic ZGVtbzpkZW1vLXBhc3N3b3Jk"]),
                ("garbage", ["Authorization": "Bearer not-a-jwt"]),
            ]
            for testCase in refused {
                let response = try await get(testCase.headers)
                #expect(response.status == 401, "\(testCase.name)")
                #expect(response.json["error"] == "invalid_token", "\(testCase.name)")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer ") == true, "\(testCase.name)")
                // RFC 6750 §3.1: no error code when the request carried no credential at all.
                let expectsErrorCode = testCase.name != "missing"
                #expect(response.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == expectsErrorCode, "\(testCase.name)")
            }

            let writeOnly = try await fixture.accessToken(scope: "\(OAuthScope.eventsWrite) \(OAuthScope.offlineAccess)")
            let forbidden = try await get(["Authorization": "Bearer \(writeOnly)"])
            #expect(forbidden.status == 403)
            #expect(forbidden.json["error"] == "insufficient_scope")
            #expect(forbidden.header("WWW-Authenticate")?.contains("error=\"insufficient_scope\"") == true)
            #expect(forbidden.header("WWW-Authenticate")?.contains("scope=\"data.read\"") == true)
        }
    }

    @Test("API keys: the kiosk app's key passes; unknown keys and keys of OAuth-mode apps do not", arguments: TestBackend.allCases)
    func apiKeys(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let (fixture, oauthAppKey) = try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                let key = try await ServerAdministration(database: storage, clock: fixture.clock).createAPIKey(clientID: ServerAdministration.demoClientID)
                return (fixture, key)
            }
            let path = "v1/destinations/sales/Customers?limit=2"
            let (ok, unknown, notAKey, oauthApp) = try await InProcessServer.test(database, clock: fixture.clock) { client in
                (try await client.get(path, headers: ["X-API-Key": fixture.apiKey]),
                 try await client.get(path, headers: ["X-API-Key": "tdk_" + String(repeating: "A", count: 43)]),
                 try await client.get(path, headers: ["X-API-Key": "hello"]),
                 try await client.get(path, headers: ["X-API-Key": oauthAppKey]))
            }
            #expect(ok.status == 200)
            #expect((ok.object["items"] as? [Any])?.count == 2)
            for (name, response) in [("unknown", unknown), ("not a key", notAKey), ("OAuth-mode app", oauthApp)] {
                #expect(response.status == 401, "\(name)")
                #expect(response.json["error"] == "invalid_token", "\(name)")
                #expect(response.header("WWW-Authenticate")?.contains("invalid_token") == true, "\(name)")
            }
            #expect(oauthApp.json["error_description"]?.contains("OAuth") == true)
        }
    }
}
