import Foundation
import Testing
import TandemBackends
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// `GET /v1/destinations/{destination}/{set}` for a destination whose data lives in a customer's
/// backend: read per user with the user's own token, cached per user and revalidated with the
/// backend's `ETag`, the backend's refusals as typed states, its outages as the last page marked
/// stale. Against a real loopback backend and a live server.
@Suite struct BackendPageReadingTests {
    /// The users, the server and the backend of one test.
    struct Setup: Sendable {
        let fixture: BusinessDataFixture
        let client: InProcessClient
        let backend: FakeCustomerBackend
        let database: TestDatabase
        /// The demo user's name, which the backend knows them by.
        let ada: String
        /// The second user's id.
        let bobID: String

        func token(bob: Bool = false, widget: Bool = false) async throws -> String {
            try await fixture.accessToken(
                scope: widget ? OAuthScope.extensionGrant : OAuthScope.userDefault,
                audience: widget ? OAuthScope.extensionAudience : OAuthScope.apiAudience, userID: bob ? bobID : nil)
        }

        func get(_ path: String, token: String, ifNoneMatch: String? = nil) async throws -> HTTPTestResponse {
            var headers = ["Authorization": "Bearer " + token]
            if let ifNoneMatch { headers["If-None-Match"] = ifNoneMatch }
            return try await client.get(path, headers: headers)
        }

        /// Saves the destinations `crm` (REST, `/rest/items`) and `erp` (OData V4, `/odata/Items`) at `base`.
        func saveDestinations(base: String, audience: String = "https://backend.test") async throws {
            try await database.withStorage { storage in
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                for destination in BackendPageReadingTests.destinations(base: base, audience: audience) {
                    _ = try await admin.saveBackendDestination(document: destination.document())
                }
            }
        }
    }

    static func destinations(base: String, audience: String) -> [BackendDestination] {
        let id = FieldMapping(pointer: JSONPointer(tokens: ["id"]))
        let title = FieldMapping(pointer: JSONPointer(tokens: ["title"]))
        return [
            BackendDestination(
                name: "crm", title: "CRM", protocolKind: .rest, baseURL: base + "rest", authentication: .userToken(audience: audience),
                entitySets: [BackendEntitySet(
                    name: "Items", path: "items",
                    mapping: EntitySetMapping(protocolKind: .rest, items: JSONPointer(tokens: ["results"]), id: id, title: title))]),
            BackendDestination(
                name: "erp", title: "ERP", protocolKind: .odataV4, baseURL: base + "odata/", authentication: .userToken(audience: audience),
                entitySets: [BackendEntitySet(
                    name: "Items", path: "Items", query: [BackendQueryItem(name: "$filter", value: "Status eq 'Open'")],
                    mapping: EntitySetMapping(protocolKind: .odataV4, id: id, title: title))]),
        ]
    }

    /// Runs `body` with a live server that may call loopback backends, its database seeded with
    /// the demo and a second user `bob`, and a fake backend that knows both.
    func withSetup(_ body: @Sendable @escaping (Setup) async throws -> Void) async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, bobID) = try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                let bob = try await admin.createUser(username: "bob", password: "bob-password-long-enough")
                return (fixture, bob.id)
            }
            try await InProcessServer.test(database, .live, clock: fixture.clock, configure: { configuration in
                configuration.outbound.allowsLoopback = true
                // Long enough for a machine busy with every other suite; these tests are not about time limits.
                configuration.outbound.connectTimeout = .seconds(60)
                configuration.outbound.requestTimeout = .seconds(60)
                // A test starved by a busy machine may leave its connection idle for long.
                configuration.idleTimeout = nil
            }) { client in
                let setup = Setup(
                    fixture: fixture, client: client, backend: FakeCustomerBackend(), database: database, ada: fixture.user.username, bobID: bobID)
                try await body(setup)
            }
        }
    }

    static func titles(_ response: HTTPTestResponse) throws -> [String] {
        let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: response.body)
        return page.items.compactMap { $0["title"] }
    }

    @Test func eachUserSeesOnlyTheirOwnRowsFromOneCache() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            setup.backend.setItems([["id": "B-1", "title": "Bob's chair"]], of: "bob")
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                for path in ["/v1/destinations/crm/Items", "/v1/destinations/erp/Items"] {
                    let ada = try await setup.get(path, token: try await setup.token())
                    let bob = try await setup.get(path, token: try await setup.token(bob: true))
                    #expect(ada.status == 200 && bob.status == 200)
                    #expect(try Self.titles(ada) == ["Ada's laptop"])
                    #expect(try Self.titles(bob) == ["Bob's chair"])
                    #expect(ada.header("ETag") != bob.header("ETag"))
                }
                let seen = setup.backend.seen
                #expect(seen.count == 4)
                // Each user's first read asks fresh: nothing kept for one user is offered for another.
                #expect(seen.allSatisfy { $0.ifNoneMatch == nil })
                #expect(seen.map { FakeCustomerBackend.string($0.claims?["preferred_username"]) } == [setup.ada, "bob", setup.ada, "bob"])
            }
        }
    }

    @Test func aTechnicalUserCallsWithItsSealedPasswordAndNamesEachUserInASignedHeader() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            setup.backend.setItems([["id": "B-1", "title": "Bob's chair"]], of: "bob")
            setup.backend.requireTechnicalUser("svc-tandem", password: "correct horse battery")
            try await setup.backend.serve { base in
                var hr = Self.destinations(base: base, audience: "https://backend.test")[0]
                hr.name = "hr"
                hr.authentication = .technicalUser(audience: "https://backend.test", userHeader: "Tandem-User")
                try await setup.database.withStorage { storage in
                    _ = try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: setup.fixture.clock)
                        .saveBackendDestination(document: hr.document())
                }
                // No technical user stored yet: a typed error, and the backend is not called.
                let missing = try await setup.get("/v1/destinations/hr/Items", token: try await setup.token())
                #expect(missing.status == 502, "\(String(decoding: missing.body, as: UTF8.self))")
                #expect(setup.backend.seen.isEmpty)

                try await setup.database.withStorage { storage in
                    let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: setup.fixture.clock)
                    try await admin.setBackendCredential(destination: "hr", username: "svc-tandem", password: "correct horse battery", secret: .forTests)
                    let stored = try await storage.backendCredentials.username(of: "hr")
                    #expect(stored == "svc-tandem")
                }
                let ada = try await setup.get("/v1/destinations/hr/Items", token: try await setup.token())
                let bob = try await setup.get("/v1/destinations/hr/Items", token: try await setup.token(bob: true))
                #expect(ada.status == 200 && bob.status == 200)
                #expect(try Self.titles(ada) == ["Ada's laptop"])
                #expect(try Self.titles(bob) == ["Bob's chair"])
                let seen = setup.backend.seen
                #expect(seen.map(\.technicalUser) == ["svc-tandem", "svc-tandem"])
                #expect(seen.map { FakeCustomerBackend.string($0.claims?["preferred_username"]) } == [setup.ada, "bob"])
                #expect(seen.allSatisfy { FakeCustomerBackend.string($0.claims?["aud"]) == "https://backend.test" })
            }
        }
    }

    @Test func aTechnicalUsersPasswordIsStoredOnlySealedAndOnlyForATechnicalUserDestination() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await BusinessDataFixture.seed(storage)
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: fixture.clock)
                for destination in Self.destinations(base: "https://erp.example.com/", audience: "https://erp.example.com") {
                    _ = try await admin.saveBackendDestination(document: destination.document())
                }
                // crm reads with the user's token: a technical user has nothing to do there.
                await #expect(throws: AdminError.self) {
                    try await admin.setBackendCredential(destination: "crm", username: "svc", password: "pw-long-enough", secret: .forTests)
                }
                await #expect(throws: AdminError.self) {
                    try await admin.setBackendCredential(destination: "nowhere", username: "svc", password: "pw-long-enough", secret: .forTests)
                }
                var hr = Self.destinations(base: "https://erp.example.com/", audience: "https://erp.example.com")[0]
                hr.name = "hr"
                hr.authentication = .technicalUser(audience: "https://erp.example.com", userHeader: "X-On-Behalf-Of")
                _ = try await admin.saveBackendDestination(document: hr.document())
                await #expect(throws: AdminError.self, "HTTP Basic cannot carry a ':' in the name") {
                    try await admin.setBackendCredential(destination: "hr", username: "svc:x", password: "pw-long-enough", secret: .forTests)
                }
                try await admin.setBackendCredential(destination: "hr", username: "svc", password: "the-password-42", secret: .forTests)

                let keys = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests, clock: fixture.clock)
                #expect(try await storage.backendCredentials.technicalUser(of: "hr", sealingKey: keys.sealingKey)
                    == BackendTechnicalUser(username: "svc", password: "the-password-42"))
                // Another sealing key opens nothing.
                await #expect(throws: StorageError.self) {
                    try await storage.backendCredentials.technicalUser(of: "hr", sealingKey: Data(repeating: 7, count: 32))
                }
                let audit = try await storage.audit.auditEvents(clientID: nil, limit: 10)
                let line = try #require(audit.first { $0.kind == "destination.credential_set" })
                #expect(line.detail == "hr: technical user svc")
                #expect(!audit.contains { $0.detail.contains("the-password-42") })

                // Removing the destination removes its technical user.
                #expect(try await admin.removeBackendDestination(name: "hr"))
                #expect(try await storage.backendCredentials.username(of: "hr") == nil)
            }
        }
    }

    @Test func aKeptPageIsRevalidatedWithTheBackendsETag() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let token = try await setup.token()
                let first = try await setup.get("/v1/destinations/crm/Items", token: token)
                let second = try await setup.get("/v1/destinations/crm/Items", token: token)
                let unchanged = try await setup.get("/v1/destinations/crm/Items", token: token, ifNoneMatch: first.header("ETag"))
                #expect(first.status == 200 && second.status == 200 && unchanged.status == 304)
                #expect(first.body == second.body && first.header("ETag") == second.header("ETag"))
                #expect(first.header("Cache-Control") == "private, no-cache")
                let seen = setup.backend.seen
                #expect(seen.count == 3)
                #expect(seen[0].ifNoneMatch == nil && seen[1].ifNoneMatch != nil && seen[1].ifNoneMatch == seen[2].ifNoneMatch)

                setup.backend.setItems([["id": "A-1", "title": "Ada's new laptop"]], of: setup.ada)
                let changed = try await setup.get("/v1/destinations/crm/Items", token: token, ifNoneMatch: first.header("ETag"))
                #expect(changed.status == 200)
                #expect(try Self.titles(changed) == ["Ada's new laptop"])
            }
        }
    }

    @Test func aBackendsMaxAgeSpareItCallsUntilItRunsOut() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            setup.backend.sendCacheControl("private, max-age=60")
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let token = try await setup.token()
                _ = try await setup.get("/v1/destinations/crm/Items", token: token)
                setup.fixture.clock.advance(by: .seconds(30))
                _ = try await setup.get("/v1/destinations/crm/Items", token: token)
                #expect(setup.backend.seen.count == 1)
                setup.fixture.clock.advance(by: .seconds(31))
                _ = try await setup.get("/v1/destinations/crm/Items", token: try await setup.token())
                #expect(setup.backend.seen.count == 2)
            }
        }
    }

    @Test func theBackendGetsTheUsersTokenForItsAudienceAndTheWidgetsAsActing() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base, audience: "https://erp.customer.test")
                _ = try await setup.get("/v1/destinations/erp/Items", token: try await setup.token())
                _ = try await setup.get("/v1/destinations/erp/Items", token: try await setup.token(widget: true))
                let seen = setup.backend.seen
                #expect(seen.count == 2)
                let app = try #require(seen.first?.claims)
                #expect(FakeCustomerBackend.string(app["aud"]) == "https://erp.customer.test")
                #expect(FakeCustomerBackend.string(app["sub"]) == setup.fixture.user.id)
                #expect(FakeCustomerBackend.string(app["iss"]) == InProcessServer.issuer)
                #expect(FakeCustomerBackend.string(app["client_id"]) == ServerAdministration.demoClientID)
                #expect(app["act"] == nil)
                let widget = try #require(seen.last?.claims)
                #expect(widget["act"] == .object([
                    "sub": .string(ServerAdministration.demoClientID + ":widgets"), "client_id": .string(ServerAdministration.demoClientID),
                ]))
                // The widget's page is its own: it was not answered from the app's.
                #expect(seen.last?.ifNoneMatch == nil)
            }
        }
    }

    @Test func odataPagesByPositionAndCountsTheCollection() async throws {
        try await withSetup { setup in
            setup.backend.setItems((1...5).map { ["id": "A-\($0)", "title": "Item \($0)"] }, of: setup.ada)
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let token = try await setup.token()
                let first = try await setup.get("/v1/destinations/erp/Items?limit=2", token: token)
                let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: first.body)
                #expect(page.items.map { $0["id"] } == ["A-1", "A-2"])
                #expect(page.total == 5 && page.next == "/v1/destinations/erp/Items?limit=2&offset=2")
                let last = try await setup.get("/v1/destinations/erp/Items?limit=2&offset=4", token: token)
                let lastPage = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: last.body)
                #expect(lastPage.items.map { $0["id"] } == ["A-5"] && lastPage.next == nil)
                let queries = setup.backend.seen.map(\.query)
                #expect(queries.first == ["$filter": "Status eq 'Open'", "$top": "2", "$count": "true"])
                #expect(queries.last == ["$filter": "Status eq 'Open'", "$top": "2", "$skip": "4", "$count": "true"])
                // A REST set is read from its backend's first page only.
                let rest = try await setup.get("/v1/destinations/crm/Items?offset=2", token: token)
                #expect(rest.status == 400)
                #expect(setup.backend.seen.count == 2)
            }
        }
    }

    @Test func theBackendsRefusalsAreTypedAndForgetWhatWasKept() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let token = try await setup.token()
                #expect(try await setup.get("/v1/destinations/crm/Items", token: token).status == 200)
                setup.backend.answer(403)
                let forbidden = try await setup.get("/v1/destinations/crm/Items", token: token)
                #expect(forbidden.status == 403 && forbidden.json["error"] == "backend_forbidden")
                setup.backend.answer(401)
                let unauthorized = try await setup.get("/v1/destinations/crm/Items", token: token)
                #expect(unauthorized.status == 403 && unauthorized.json["error"] == "backend_unauthorized")
                // A user refused once is not shown the rows read before, even while the backend is down.
                setup.backend.answer(503)
                let down = try await setup.get("/v1/destinations/crm/Items", token: token)
                #expect(down.status == 503 && down.json["error"] == "backend_unavailable")
            }
        }
    }

    @Test func aRefusalForgetsEveryPageOfTheSetReadBefore() async throws {
        try await withSetup { setup in
            setup.backend.setItems((1...3).map { ["id": "A-\($0)", "title": "Item \($0)"] }, of: setup.ada)
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let token = try await setup.token()
                #expect(try await setup.get("/v1/destinations/erp/Items?limit=1", token: token).status == 200)
                #expect(try await setup.get("/v1/destinations/erp/Items?limit=2", token: token).status == 200)
                setup.backend.answer(403)
                #expect(try await setup.get("/v1/destinations/erp/Items?limit=2", token: token).status == 403)
                setup.backend.answer(503)
                let other = try await setup.get("/v1/destinations/erp/Items?limit=1", token: token)
                #expect(other.status == 503 && other.json["error"] == "backend_unavailable", "the other page is not shown stale")
                setup.backend.answer(nil)
                #expect(try await setup.get("/v1/destinations/erp/Items?limit=1", token: token).status == 200)
                setup.backend.answer(503)
                let stale = try await setup.get("/v1/destinations/erp/Items?limit=1", token: token)
                #expect(stale.status == 200 && stale.json["stale"] == "1", "read again since the refusal: kept")
            }
        }
    }

    @Test func aBackendThatIsDownGivesTheUsersLastRowsMarkedStale() async throws {
        try await withSetup { setup in
            setup.backend.setItems([["id": "A-1", "title": "Ada's laptop"]], of: setup.ada)
            let token = try await setup.token()
            let fresh = try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                return try await setup.get("/v1/destinations/crm/Items", token: token)
            }
            // The backend has stopped: its port refuses connections.
            let stale = try await setup.get("/v1/destinations/crm/Items", token: token)
            #expect(stale.status == 200)
            let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: stale.body)
            #expect(page.stale == true && page.fetchedAt != nil)
            #expect(try Self.titles(stale) == ["Ada's laptop"])
            #expect(stale.header("ETag") != fresh.header("ETag"))
            // Another user has nothing kept: an error, never Ada's rows.
            let bob = try await setup.get("/v1/destinations/crm/Items", token: try await setup.token(bob: true))
            #expect(bob.status == 503 && bob.json["error"] == "backend_unavailable")
        }
    }

    @Test func anAPIKeyHasNoUserToReadForAndAnUnknownSetIsNotFound() async throws {
        try await withSetup { setup in
            try await setup.backend.serve { base in
                try await setup.saveDestinations(base: base)
                let key = try await setup.client.get("/v1/destinations/crm/Items", headers: ["X-API-Key": setup.fixture.apiKey])
                #expect(key.status == 403 && key.json["error"] == "not_permitted")
                let missing = try await setup.get("/v1/destinations/crm/Nothing", token: try await setup.token())
                #expect(missing.status == 404)
                #expect(setup.backend.seen.isEmpty)
            }
        }
    }

    @Test func theListingOffersTheBackendsSetsWithoutACount() async throws {
        try await withSetup { setup in
            try await setup.saveDestinations(base: "https://backend.test/")
            let answer = try await setup.get("/v1/destinations", token: try await setup.token())
            #expect(answer.status == 200)
            let listing = try JSONDecoder().decode(DestinationListing.self, from: answer.body)
            #expect(listing.destinations.map(\.name) == listing.destinations.map(\.name).sorted())
            let erp = try #require(listing.destinations.first { $0.name == "erp" })
            #expect(erp.title == "ERP" && erp.entitySets.map(\.name) == ["Items"])
            #expect(erp.entitySets[0].count == nil && erp.entitySets[0].updatedAt == nil && erp.entitySets[0].href == "/v1/destinations/erp/Items")
            #expect(String(decoding: answer.body, as: UTF8.self).contains(#""count":null"#))
            #expect(listing.destinations.contains { $0.name == "sales" && $0.entitySets.allSatisfy { $0.count != nil } })
            #expect(setup.backend.seen.isEmpty, "listing calls no backend")
        }
    }
}
