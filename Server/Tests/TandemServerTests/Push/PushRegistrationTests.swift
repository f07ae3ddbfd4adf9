import Crypto
import Foundation
import Logging
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The push registry: a signed-in host registers its device's tokens (its own and its widgets'),
/// replaces them when they change and withdraws them; the widgets' read-only grant and API keys
/// cannot; a registration ends with its session and with APNs' "unregistered".
@Suite("Push registry")
struct PushRegistrationTests {
    static let hostToken = String(repeating: "ab", count: 32)
    static let widgetsToken = String(repeating: "CD", count: 32)

    @Test("a host registers both tokens, replaces one, drops a kind it leaves out, and withdraws the device", arguments: TestBackend.allCases)
    func aHostRegistersAndReplacesItsTokens(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let (token, _) = try await Self.signedInHost(fixture, database)
            let auth = ["Authorization": "Bearer \(token)"]
            let both = #"{"environment": "production", "host_token": "\#(Self.hostToken)", "widgets_token": "\#(Self.widgetsToken)"}"#
            let first = try await client.put("v1/push/devices/phone-1", body: Data(both.utf8), headers: auth)
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            #expect(first.object["kinds"] as? [String] == ["host", "widgets"])
            var live = try await Self.live(database)
            #expect(live.map(\.kind) == [.host, .widgets])
            #expect(live.last?.token == Self.widgetsToken.lowercased(), "stored lowercase, as APNs takes it")
            #expect(live.allSatisfy { $0.environment == .production && $0.userID == fixture.user.id && $0.deviceID == "phone-1" })

            let newer = String(repeating: "01", count: 32)
            let replaced = try await client.put(
                "v1/push/devices/phone-1", body: Data(#"{"environment": "sandbox", "host_token": "\#(newer)"}"#.utf8), headers: auth)
            #expect(replaced.status == 200 && replaced.object["kinds"] as? [String] == ["host"])
            live = try await Self.live(database)
            #expect(live.map(\.token) == [newer] && live.first?.environment == .sandbox, "the widgets' token, left out, is gone")

            let removed = try await client.delete("v1/push/devices/phone-1", headers: auth)
            #expect(removed.status == 204)
            #expect(try await Self.live(database).isEmpty)
        }
    }

    @Test("what the widgets show travels with the registration, merged per set, replaced with it; bad widgets and zones are refused and change nothing", arguments: TestBackend.allCases)
    func widgetsTravelWithTheRegistration(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let (token, _) = try await Self.signedInHost(fixture, database)
            let auth = ["Authorization": "Bearer \(token)"]
            let body = #"""
                {"environment": "production", "widgets_token": "\#(Self.widgetsToken)", "time_zone": "Europe/Berlin", "widgets": [
                  {"destination": "sales", "entity_set": "Orders", "rows": 3, "fields": ["OrderID", "Status"], "delivery": "direct"},
                  {"destination": "sales", "entity_set": "Orders", "rows": 10, "fields": ["Amount"], "delivery": "direct"},
                  {"destination": "sales", "entity_set": "Approvals", "rows": 4, "fields": [], "delivery": "brokered"}]}
                """#
            let answer = try await client.put("v1/push/devices/phone-1", body: Data(body.utf8), headers: auth)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            let stored = { try await database.withStorage { storage in
                try await storage.push.subscriptions(clientID: ServerAdministration.demoClientID, userID: fixture.user.id, deviceID: "phone-1")
            } }
            #expect(try await stored() == [
                PushWidgetSubscription(destination: "sales", entitySet: "Approvals", rows: 4, delivery: .brokered),
                PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 10, fields: ["Amount", "OrderID", "Status"], delivery: .direct),
            ])
            #expect(try await Self.live(database).first?.timeZone == "Europe/Berlin")

            for bad in [
                #"{"destination": "sales", "entity_set": "Orders", "rows": 0, "delivery": "direct"}"#,
                #"{"destination": "sales", "entity_set": "Orders", "rows": 101, "delivery": "direct"}"#,
                #"{"destination": "sa les", "entity_set": "Orders", "rows": 3, "delivery": "direct"}"#,
                #"{"destination": "sales", "entity_set": "Orders", "rows": 3, "delivery": "carrier-pigeon"}"#,
                #"{"destination": "sales", "entity_set": "Orders", "rows": 3, "fields": [""], "delivery": "direct"}"#,
            ] {
                let refused = try await client.put(
                    "v1/push/devices/phone-1", body: Data(#"{"environment": "production", "widgets_token": "\#(Self.widgetsToken)", "widgets": [\#(bad)]}"#.utf8),
                    headers: auth)
                #expect(refused.status == 400, "\(bad)")
            }
            let zone = try await client.put(
                "v1/push/devices/phone-1", body: Data(#"{"environment": "production", "widgets_token": "\#(Self.widgetsToken)", "time_zone": "Mars/Olympus"}"#.utf8),
                headers: auth)
            #expect(zone.status == 400)
            let many = (0...PushWidgetSubscription.maximumCount).map { #"{"destination": "sales", "entity_set": "S\#($0)", "rows": 1, "delivery": "direct"}"# }
            let tooMany = try await client.put(
                "v1/push/devices/phone-1",
                body: Data(#"{"environment": "production", "widgets_token": "\#(Self.widgetsToken)", "widgets": [\#(many.joined(separator: ","))]}"#.utf8),
                headers: auth)
            #expect(tooMany.status == 400)
            #expect(try await stored().count == 2, "every refusal left the registration as it was")

            let none = try await client.put(
                "v1/push/devices/phone-1", body: Data(#"{"environment": "production", "widgets_token": "\#(Self.widgetsToken)"}"#.utf8), headers: auth)
            #expect(none.status == 200)
            #expect(try await stored().isEmpty, "no widgets: the device is pushed nothing")
            #expect(try await client.delete("v1/push/devices/phone-1", headers: auth).status == 204)
        }
    }

    @Test("the widgets' read-only grant, an API key and no credential register nothing; bad bodies neither")
    func onlyTheHostRegisters() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            let body = Data(#"{"environment": "production", "widgets_token": "\#(Self.widgetsToken)"}"#.utf8)
            let widget = try await fixture.accessToken(scope: OAuthScope.extensionGrant, audience: OAuthScope.extensionAudience)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["Authorization": "Bearer \(widget)"]).status == 401)
            let readOnly = try await fixture.accessToken(scope: OAuthScope.dataRead)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["Authorization": "Bearer \(readOnly)"]).status == 403)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["X-API-Key": fixture.apiKey]).status == 403)
            #expect(try await client.put("v1/push/devices/phone-1", body: body).status == 401)

            let (token, _) = try await Self.signedInHost(fixture, database)
            let auth = ["Authorization": "Bearer \(token)"]
            for bad in [
                #"{"environment": "staging", "host_token": "\#(Self.hostToken)"}"#, #"{"environment": "production"}"#,
                #"{"environment": "production", "host_token": "xyz"}"#, #"{"environment": "production", "host_token": "abc"}"#,
                #"{"environment": "production", "host_token": "\#(String(repeating: "ab", count: 101))"}"#, "[]", "nope",
            ] {
                let answer = try await client.put("v1/push/devices/phone-1", body: Data(bad.utf8), headers: auth)
                #expect(answer.status == 400 && answer.object["error"] as? String == "invalid_request", "\(bad)")
            }
            #expect(try await client.put("v1/push/devices/phone%0A1", body: body, headers: auth).status == 400)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, contentType: "text/plain", headers: auth).status == 415)
            #expect(try await Self.live(database).isEmpty)
        }
    }

    @Test("a registration ends with its session (revoked grant) and when APNs says its token is unregistered", arguments: TestBackend.allCases)
    func registrationsEndWithTheirSession(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let (first, firstFamily) = try await Self.signedInHost(fixture, database)
            let (second, _) = try await Self.signedInHost(fixture, database)
            for (token, device) in [(first, "phone-1"), (second, "phone-2")] {
                let body = #"{"environment": "production", "host_token": "\#(device == "phone-1" ? Self.hostToken : String(repeating: "02", count: 32))"}"#
                #expect(try await client.put("v1/push/devices/\(device)", body: Data(body.utf8), headers: ["Authorization": "Bearer \(token)"]).status == 200)
            }
            try await database.withStorage { storage in
                _ = try await storage.tokens.revokeFamily(id: firstFamily, now: Timestamp(fixture.clock.now))
                #expect(try await storage.push.liveRegistrations(clientID: ServerAdministration.demoClientID).map(\.deviceID) == ["phone-2"])
                #expect(try await storage.push.deleteEndedRegistrations() == 1)
                #expect(try await storage.push.remove(
                    token: String(repeating: "02", count: 32), clientID: ServerAdministration.demoClientID, environment: .production) == 1)
                #expect(try await storage.push.liveRegistrations(clientID: ServerAdministration.demoClientID).isEmpty)
            }
        }
    }

    @Test("a token is registered once per app and environment: another user's registration of it takes it over", arguments: TestBackend.allCases)
    func aTokenBelongsToOneRegistration(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let other = try await database.withStorage { storage in
                try await ServerAdministration(database: storage, passwordHasher: PasswordHasher(logN: 10)).createUser(
                    username: "ada", password: "a long enough password")
            }
            let (first, _) = try await Self.signedInHost(fixture, database)
            let (second, _) = try await Self.signedInHost(fixture, database, userID: other.id)
            let body = Data(#"{"environment": "production", "host_token": "\#(Self.hostToken)"}"#.utf8)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["Authorization": "Bearer \(first)"]).status == 200)
            #expect(try await client.put("v1/push/devices/phone-9", body: body, headers: ["Authorization": "Bearer \(second)"]).status == 200)
            let live = try await Self.live(database)
            #expect(live.map(\.userID) == [other.id] && live.map(\.deviceID) == ["phone-9"], "the newest registration keeps the token")

            // In the other environment it is another token: both stay.
            let sandbox = Data(#"{"environment": "sandbox", "host_token": "\#(Self.hostToken)"}"#.utf8)
            #expect(try await client.put("v1/push/devices/phone-1", body: sandbox, headers: ["Authorization": "Bearer \(first)"]).status == 200)
            #expect(try await Self.live(database).count == 2)
        }
    }

    @Test("APNs' refusal removes the token of that app and environment only; a 410 older than the registration spares it", arguments: TestBackend.allCases)
    func aRefusedTokenLeavesOnlyItsApp(backend: TestBackend) async throws {
        try await BusinessDataFixture.withServer(backend) { fixture, client, database in
            let (token, _) = try await Self.signedInHost(fixture, database)
            let (otherApp, _) = try await Self.signedInHost(fixture, database, clientID: "another-app")
            let body = Data(#"{"environment": "production", "host_token": "\#(Self.hostToken)"}"#.utf8)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["Authorization": "Bearer \(token)"]).status == 200)
            #expect(try await client.put("v1/push/devices/phone-1", body: body, headers: ["Authorization": "Bearer \(otherApp)"]).status == 200)
            try await database.withStorage { storage in
                let registeredAt = try #require(try await storage.push.liveRegistrations(clientID: ServerAdministration.demoClientID).first?.updatedAt)
                let stale = try await storage.push.remove(
                    token: Self.hostToken, clientID: ServerAdministration.demoClientID, environment: .production,
                    unregisteredAt: registeredAt.adding(.seconds(-60)))
                #expect(stale == 0, "registered again after APNs learned it was gone")
                #expect(try await storage.push.remove(token: Self.hostToken, clientID: ServerAdministration.demoClientID, environment: .sandbox) == 0)
                #expect(try await storage.push.remove(token: Self.hostToken, clientID: ServerAdministration.demoClientID, environment: .production) == 1)
                #expect(try await storage.push.liveRegistrations(clientID: "another-app").count == 1, "another app's registration stays")
            }
        }
    }

    /// A host signed in to the app `clientID` (the demo app by default) as the user `userID` (the
    /// demo user by default): a grant stored in the database and an access token issued from it.
    private static func signedInHost(
        _ fixture: BusinessDataFixture, _ database: TestDatabase, userID: String? = nil, clientID: String = ServerAdministration.demoClientID
    ) async throws -> (token: String, familyID: String) {
        let now = Timestamp(fixture.clock.now)
        if clientID != ServerAdministration.demoClientID {
            try await database.withStorage { storage in
                if try await storage.apps.app(clientID: clientID) == nil {
                    try await ServerAdministration(database: storage).createApp(
                        clientID: clientID, name: clientID, redirectURIs: [], urlScheme: nil, securityMode: .oauth, ssoEnabled: false)
                }
            }
        }
        let family = TokenFamily(
            id: UUID().uuidString.lowercased(), clientID: clientID, userID: userID ?? fixture.user.id,
            scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, createdAt: now, revokedAt: nil)
        try await database.withStorage { storage in
            try await storage.tokens.createFamily(family, tokenHash: SecretToken.hash(SecretToken.generate(.refreshToken)), expiresAt: now.adding(.seconds(3600)))
        }
        let signer = try await AccessTokenSigner(signingKey: fixture.keys.signingKey, issuer: BusinessDataFixture.issuer)
        return (try await signer.sign(for: family, now: now), family.id)
    }

    private static func live(_ database: TestDatabase) async throws -> [PushRegistration] {
        try await database.withStorage { storage in try await storage.push.liveRegistrations(clientID: ServerAdministration.demoClientID) }
    }
}
