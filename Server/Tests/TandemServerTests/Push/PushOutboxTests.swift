import Crypto
import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The push outbox on both databases: a change owes one push per live registration of an app
/// with an APNs key, written in the change's transaction; further changes coalesce into it; a
/// claim is exclusive; a push sent while a newer change came in stays owed; registrations that
/// end take their pushes with them; the APNs key is stored sealed.
@Suite("Push outbox")
struct PushOutboxTests {
    static let hostToken = String(repeating: "ab", count: 32)
    static let widgetsToken = String(repeating: "cd", count: 32)

    @Test("a change owes one push per token of a live registration, only for apps with an APNs key, and coalesces", arguments: TestBackend.allCases)
    func aChangeOwesOnePushPerToken(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(storage)
                try await fixture.change(storage, rows: 1)
                #expect(try await storage.pushOutbox.pendingCount() == 0, "the app has no APNs key yet: nothing is owed")

                try await fixture.storeCredentials(storage)
                try await fixture.change(storage, rows: 2)
                let owed = try await storage.pushOutbox.due(now: fixture.now, limit: 10)
                #expect(owed.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.host, .widgets])
                #expect(Set(owed.map(\.token)) == [Self.hostToken, Self.widgetsToken])
                #expect(owed.allSatisfy { $0.destination == "sales" && $0.entitySet == "Orders" && $0.lastSentAt == nil })

                try await fixture.change(storage, rows: 3)
                let coalesced = try await storage.pushOutbox.due(now: fixture.now, limit: 10)
                #expect(coalesced.count == 2, "a second change moves the owed pushes' change id, it adds none")
                #expect(Set(coalesced.map(\.changeID)).count == 1 && coalesced[0].changeID != owed[0].changeID)
                #expect(coalesced[0].apnsID != owed[0].apnsID, "a new change is a new notification id")

                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Orders", rows: Self.rows(3), now: fixture.now)
                #expect(try await storage.pushOutbox.due(now: fixture.now, limit: 10).map(\.changeID) == coalesced.map(\.changeID),
                        "an identical write changes nothing and owes nothing")
            }
        }
    }

    @Test("a claim is exclusive; a push answered while a newer change came in stays owed", arguments: TestBackend.allCases)
    func claimsAreExclusiveAndLateChangesStayOwed(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(storage)
                try await fixture.storeCredentials(storage)
                try await fixture.change(storage, rows: 1)
                let owed = try await storage.pushOutbox.due(now: fixture.now, limit: 10)
                let host = try #require(owed.first { $0.kind == .host })
                let widgets = try #require(owed.first { $0.kind == .widgets })
                let lease = fixture.now.adding(.seconds(30))

                #expect(try await storage.pushOutbox.claim(host, leaseUntil: lease))
                #expect(try await !storage.pushOutbox.claim(host, leaseUntil: lease), "a second sender cannot claim it")
                #expect(try await storage.pushOutbox.due(now: fixture.now, limit: 10).map(\.kind) == [.widgets], "claimed: not due until the lease ends")
                #expect(try await storage.pushOutbox.due(now: lease, limit: 10).first { $0.kind == .host }?.attempts == 1,
                        "after the lease (a sender that crashed), it is due again, one attempt counted")

                #expect(try await storage.pushOutbox.claim(widgets, leaseUntil: lease))
                try await fixture.change(storage, rows: 2)  // while the widgets' push is in flight
                try await storage.pushOutbox.markSent(host, now: fixture.now)
                try await storage.pushOutbox.markSent(widgets, now: fixture.now)

                let left = try await storage.pushOutbox.due(now: fixture.now, limit: 10)
                #expect(left.count == 2, "both tokens owe the newer change, due at once: the sender's pacing decides when it goes")
                #expect(left.allSatisfy { $0.lastSentAt == fixture.now && $0.lastViewDigest == widgets.viewDigest })
                #expect(try await storage.pushOutbox.counts(clientID: ServerAdministration.demoClientID)[.widgets]?[.sent] == 1)
            }
        }
    }

    @Test("a registration that ends (revoked grant, APNs key removed) takes its owed pushes with it", arguments: TestBackend.allCases)
    func endedRegistrationsTakeTheirPushes(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(storage)
                try await fixture.storeCredentials(storage)
                try await fixture.change(storage, rows: 1)
                #expect(try await storage.pushOutbox.pendingCount() == 2)
                _ = try await storage.tokens.revokeFamily(id: fixture.familyID, now: fixture.now)
                #expect(try await storage.pushOutbox.due(now: fixture.now, limit: 10).count == 2, "still read until swept")
                #expect(try await storage.pushOutbox.deleteOrphans() == 2)
                try await fixture.change(storage, rows: 2)
                #expect(try await storage.pushOutbox.pendingCount() == 0, "a revoked grant is owed nothing")

                let again = try await PushFixture.make(storage)
                try await again.change(storage, rows: 3)
                #expect(try await storage.pushOutbox.pendingCount() == 2)
                try await storage.apnsCredentials.remove(clientID: ServerAdministration.demoClientID)
                #expect(try await storage.pushOutbox.pendingCount() == 0)
            }
        }
    }

    @Test("the APNs key is stored sealed: not in the row, not opened by another key or on another app's row")
    func theKeyIsStoredSealed() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(storage)
                try await fixture.storeCredentials(storage)
                let opened = try #require(try await storage.apnsCredentials.credentials(
                    clientID: ServerAdministration.demoClientID, sealingKey: fixture.sealingKey))
                #expect(opened.privateKey.rawRepresentation == fixture.credentials.privateKey.rawRepresentation)
                #expect(opened.keyID == "ABCDE12345" && opened.teamID == "TEAM123456" && opened.bundleID == "com.example.tandem")

                let stored = try await storage.connector.perform("reading") { database in
                    try await database.raw("SELECT sealed_key FROM apns_credentials").first()?.decode(column: "sealed_key", as: Data.self)
                }
                let sealed = try #require(stored)
                #expect(sealed.range(of: fixture.credentials.privateKey.rawRepresentation) == nil)
                await #expect(throws: StorageError.self) {
                    try await storage.apnsCredentials.credentials(
                        clientID: ServerAdministration.demoClientID, sealingKey: Data(repeating: 7, count: 32))
                }
                try await storage.connector.perform("copying") { database in
                    try await database.raw("""
                        INSERT INTO apns_credentials (client_id, key_id, team_id, bundle_id, sealed_key, updated_at)
                        SELECT \(bind: ServerAdministration.demoKioskClientID), key_id, team_id, bundle_id, sealed_key, updated_at
                        FROM apns_credentials
                        """).run()
                }
                await #expect(throws: StorageError.self, "a box copied onto another app's row does not open") {
                    try await storage.apnsCredentials.credentials(clientID: ServerAdministration.demoKioskClientID, sealingKey: fixture.sealingKey)
                }
            }
        }
    }

    static func rows(_ count: Int) -> [String] {
        (0..<count).map { #"{"id":\#($0),"customer":"Customer \#($0)"}"# }
    }
}

/// The demo seeded, a live grant for the demo user, and that user's phone registered with both
/// tokens and, by default, two widgets showing `sales/Orders`: one that fetches itself (owed
/// WidgetKit pushes) and one the host fetches for (owed background pushes).
struct PushFixture: Sendable {
    let familyID: String
    let now: Timestamp
    var sealingKey: Data
    var credentials: APNsCredentials

    static func make(
        _ storage: ServerDatabase, clock: ManualClock = ManualClock(), hostToken: String = PushOutboxTests.hostToken,
        widgetsToken: String = PushOutboxTests.widgetsToken, deviceID: String = "phone-1",
        widgets: [PushWidgetSubscription] = PushFixture.ordersWidgets, username: String = ServerAdministration.demoUsername
    ) async throws -> PushFixture {
        let now = Timestamp(clock.now)
        let admin = ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10), clock: clock)
        if try await storage.accounts.user(named: ServerAdministration.demoUsername) == nil {
            _ = try await admin.seedDemo(password: "demo-password")
        }
        if try await storage.accounts.user(named: username) == nil {
            _ = try await admin.createUser(username: username, password: "a-password-long-enough")
        }
        let user = try #require(try await storage.accounts.user(named: username))
        let family = TokenFamily(
            id: UUID().uuidString.lowercased(), clientID: ServerAdministration.demoClientID, userID: user.id,
            scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, createdAt: now, revokedAt: nil)
        try await storage.tokens.createFamily(family, tokenHash: SecretToken.hash(SecretToken.generate(.refreshToken)), expiresAt: now.adding(.seconds(3600)))
        try await storage.push.replace(
            PushRegistration.Kind.allCases.map { kind in
                PushRegistration(
                    clientID: ServerAdministration.demoClientID, userID: user.id, deviceID: deviceID, kind: kind, environment: .sandbox,
                    token: kind == .host ? hostToken : widgetsToken, familyID: family.id, updatedAt: now)
            },
            subscriptions: widgets, clientID: ServerAdministration.demoClientID, userID: user.id, deviceID: deviceID)
        return PushFixture(
            familyID: family.id, now: now, sealingKey: Data(repeating: 42, count: 32),
            credentials: APNsCredentials(keyID: "ABCDE12345", teamID: "TEAM123456", bundleID: "com.example.tandem", privateKey: P256.Signing.PrivateKey()))
    }

    /// A widget of each delivery showing the first ten rows of `sales/Orders`, every field.
    static let ordersWidgets = [
        PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 10, delivery: .direct),
        PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 10, delivery: .brokered),
    ]

    func storeCredentials(_ storage: ServerDatabase) async throws {
        try await storage.apnsCredentials.store(credentials, clientID: ServerAdministration.demoClientID, sealingKey: sealingKey, now: now)
    }

    /// Replaces `sales/Orders` with `rows` rows, at `at` (default the fixture's start).
    func change(_ storage: ServerDatabase, rows: Int, at: Timestamp? = nil) async throws {
        try await storage.businessData.replaceEntitySet(
            destination: "sales", title: "Sales", name: "Orders", rows: PushOutboxTests.rows(rows), now: at ?? now)
    }
}
