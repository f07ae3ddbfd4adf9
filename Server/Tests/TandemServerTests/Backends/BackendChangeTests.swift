import Foundation
import TandemBackends
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// A customer's backend reports that a set changed for some users (or everyone): the change
/// feed records it per user, and only those users' devices whose widgets show the set are owed
/// a push.
@Suite("Backend changes")
struct BackendChangeTests {
    static let approvals = [PushWidgetSubscription(destination: "erp", entitySet: "Approvals", rows: 5, delivery: .direct)]

    /// The demo user's phone and bob's each show erp/Approvals; the demo user's tablet shows
    /// another set.
    static func registerDevices(_ storage: ServerDatabase) async throws -> (demo: PushFixture, bobID: String) {
        let demo = try await PushFixture.make(
            storage, hostToken: String(repeating: "a1", count: 32), widgetsToken: String(repeating: "a2", count: 32), deviceID: "demo-phone",
            widgets: approvals)
        _ = try await PushFixture.make(
            storage, hostToken: String(repeating: "b1", count: 32), widgetsToken: String(repeating: "b2", count: 32), deviceID: "bob-phone",
            widgets: approvals, username: "bob")
        _ = try await PushFixture.make(
            storage, hostToken: String(repeating: "c1", count: 32), widgetsToken: String(repeating: "c2", count: 32), deviceID: "demo-tablet",
            widgets: [PushWidgetSubscription(destination: "erp", entitySet: "Orders", rows: 5, delivery: .direct)])
        try await demo.storeCredentials(storage)
        let bob = try #require(try await storage.accounts.user(named: "bob"))
        return (demo, bob.id)
    }

    @Test("a change for one user is owed only to that user's devices that show the set", arguments: TestBackend.allCases)
    func onlyTheUsersDevicesShowingTheSetAreOwed(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let (demo, _) = try await Self.registerDevices(storage)
                let demoUser = try #require(try await storage.accounts.user(named: ServerAdministration.demoUsername))
                let recorded = try await storage.changes.recordBackendChange(
                    destination: "erp", entitySet: "Approvals", userIDs: [demoUser.id], now: demo.now)
                #expect(recorded.map(\.userID) == [demoUser.id])
                let owed = try await storage.pushOutbox.due(now: demo.now, limit: 10)
                #expect(owed.map(\.deviceID) == ["demo-phone"] && owed.map(\.kind) == [.widgets], "\(owed)")
                // A second change before the push went: still one push for that device.
                _ = try await storage.changes.recordBackendChange(destination: "erp", entitySet: "Approvals", userIDs: [demoUser.id], now: demo.now)
                #expect(try await storage.pushOutbox.pendingCount() == 1)
                let feed = try await storage.changes.changes(since: demo.now, limit: 100).filter { $0.destination == "erp" }
                #expect(feed.count == 2 && feed.allSatisfy { $0.userID == demoUser.id && $0.entitySet == "Approvals" })
            }
        }
    }

    @Test("a change without users is everyone's", arguments: TestBackend.allCases)
    func aChangeWithoutUsersIsEveryones(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let (demo, _) = try await Self.registerDevices(storage)
                let recorded = try await storage.changes.recordBackendChange(destination: "erp", entitySet: "Approvals", userIDs: nil, now: demo.now)
                #expect(recorded.count == 1 && recorded[0].userID == nil)
                let owed = try await storage.pushOutbox.due(now: demo.now, limit: 10)
                #expect(Set(owed.map(\.deviceID)) == ["demo-phone", "bob-phone"], "\(owed)")
            }
        }
    }

    @Test("the backend's app reports changes with its key; nobody else does, and bad reports change nothing")
    func theEndpoint() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let key = try await database.withStorage { storage in
                let (_, _) = try await Self.registerDevices(storage)
                let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10))
                let erp = BackendDestination(
                    name: "erp", title: "ERP", protocolKind: .rest, baseURL: "https://erp.example.test/api", authentication: .none,
                    entitySets: [BackendEntitySet(
                        name: "Approvals", path: "approvals/",
                        mapping: EntitySetMapping(protocolKind: .rest, items: JSONPointer(tokens: ["results"]), id: FieldMapping(pointer: JSONPointer(tokens: ["id"]))))])
                try await admin.saveBackendDestination(document: erp.document())
                _ = try await admin.createApp(clientID: "erp-backend", name: "ERP", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
                try await admin.setWriter(clientID: "erp-backend", destinations: ["erp"])
                return try await admin.createAPIKey(clientID: "erp-backend")
            }
            let kiosk = try await database.withStorage { storage in
                try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10)).createAPIKey(clientID: ServerAdministration.demoKioskClientID)
            }
            // No sender: what is owed stays in the outbox to be counted.
            try await InProcessServer.test(database, configure: { $0.push.runsSender = false }) { client in
                let path = "/v1/destinations/erp/Approvals/changes"
                let reported = try await client.post(path, body: Data(#"{"users":["demo","nobody","demo"]}"#.utf8), contentType: "application/json", headers: ["X-API-Key": key])
                #expect(reported.status == 202)
                #expect(reported.json == ["changes": "1", "unknown_users": "1"])
                #expect(try await client.post(path, body: Data(), headers: [:]).status == 401)
                #expect(try await client.post(path, body: Data(), headers: ["X-API-Key": kiosk]).status == 403)
                #expect(try await client.post("/v1/destinations/erp/Nothing/changes", body: Data(), headers: ["X-API-Key": key]).status == 404)
                // Another destination is not the app's to report on (whether it exists is not told).
                #expect(try await client.post("/v1/destinations/sales/Orders/changes", body: Data(), headers: ["X-API-Key": key]).status == 403)
                #expect(try await client.post(path, body: Data("{\"users\":\"demo\"}".utf8), headers: ["X-API-Key": key]).status == 400)
                #expect(try await client.post(path, body: Data(#"{"users":[]}"#.utf8), headers: ["X-API-Key": key]).status == 400)
                let everyone = try await client.post(path, body: Data(), headers: ["X-API-Key": key])
                #expect(everyone.status == 202 && everyone.json["changes"] == "1")
            }
            let owed = try await database.withStorage { storage in try await storage.pushOutbox.pendingCount() }
            #expect(owed == 2, "the demo user's phone and bob's, each once")
        }
    }
}
