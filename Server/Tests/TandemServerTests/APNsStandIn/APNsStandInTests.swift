import Crypto
import Foundation
import TandemAPNsStandIn
import TandemProtocol
import Testing

/// The APNs stand-in as a provider meets it: real HTTP/2 over TLS trusting only its test
/// certificate authority, Apple's statuses and reasons for each broken rule, pushes written to the
/// device's inbox, and time moved by a `ManualClock`, never waited for.
@Suite("APNs stand-in")
struct APNsStandInTests {
    typealias Harness = APNsStandInHarness

    @Test("an accepted WidgetKit push answers 200 over HTTP/2 with its apns-id and lands in the device's inbox")
    func acceptedWidgetsPushLandsInTheInbox() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let id = "eabeae54-14a8-11e5-b60b-1697f925ec7b"
            var headers = Harness.widgetsHeaders
            headers["apns-id"] = id
            headers["apns-collapse-id"] = "orders"
            let answer = try await harness.send(to: device.token, headers: headers, payload: Harness.widgetsPayload)
            #expect(answer.status == 200 && answer.apnsID == id && answer.reason == nil)
            #expect(answer.isHTTP2)

            let file = device.inbox.appending(path: "\(id).json")
            let written = try #require(FileManager.default.contents(atPath: file.path))
            let json = try JSONDecoder().decode([String: JSONValue].self, from: written)
            #expect(json["apns_id"] == .string(id))
            #expect(json["push_type"] == .string("widgets"))
            #expect(json["topic"] == .string(Harness.widgetsTopic))
            #expect(json["priority"] == .number(10))
            #expect(json["collapse_id"] == .string("orders"))
            #expect(json["expiration"] == .null, "written as null, not left out")
            #expect(json["payload"] == .object(["aps": .object(["content-changed": .bool(true)])]))
            #expect(json["received_at"] == .number(harness.clock.now.timeIntervalSince1970 * 1000))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: device.inbox.path)
            #expect(leftovers == ["\(id).json"], "no temporary file left behind")

            #expect(harness.apns.deliveries() == (try device.receivedNotifications()))
            #expect(harness.apns.deliveries().map(\.deviceToken) == [device.token])
            #expect(harness.apns.refusals().isEmpty)
        }
    }

    @Test("a push without apns-id gets a new UUID; an apns-id that is not a UUID is BadMessageId")
    func apnsIDIsEchoedOrMade() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let answer = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            let id = try #require(answer.apnsID)
            #expect(answer.status == 200 && UUID(uuidString: id) != nil)
            #expect(harness.apns.deliveries().first?.apnsID == id)

            var headers = Harness.widgetsHeaders
            headers["apns-id"] = "not-a-uuid"
            let refused = try await harness.send(to: device.token, headers: headers, payload: Harness.widgetsPayload)
            #expect(refused.status == 400 && refused.reason == "BadMessageId")
        }
    }

    @Test("a background push needs content-available 1, no alert, and priority 5: priority 10 is BadPriority")
    func backgroundPushRules() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            var urgent = Harness.backgroundHeaders
            urgent["apns-priority"] = "10"
            let atTen = try await harness.send(to: device.token, headers: urgent, payload: Harness.backgroundPayload)
            #expect(atTen.status == 400 && atTen.reason == "BadPriority")
            urgent["apns-priority"] = nil
            let unstated = try await harness.send(to: device.token, headers: urgent, payload: Harness.backgroundPayload)
            #expect(unstated.reason == "BadPriority", "APNs takes a missing priority for 10")

            let alerting = try await harness.send(
                to: device.token, headers: Harness.backgroundHeaders, payload: #"{"aps":{"content-available":1,"alert":"Hi"}}"#)
            #expect(alerting.status == 400 && alerting.reason == "InvalidPushType")
            let empty = try await harness.send(to: device.token, headers: Harness.backgroundHeaders, payload: #"{"aps":{}}"#)
            #expect(empty.status == 400 && empty.reason == "InvalidPushType")

            let accepted = try await harness.send(to: device.token, headers: Harness.backgroundHeaders, payload: Harness.backgroundPayload)
            #expect(accepted.status == 200)
            let delivery = try #require(try device.receivedNotifications().first)
            #expect(delivery.pushType == "background" && delivery.priority == 5 && delivery.topic == Harness.bundleID)
            #expect(harness.apns.refusals().map(\.reason) == ["BadPriority", "BadPriority", "InvalidPushType", "InvalidPushType"])
            #expect(harness.apns.refusals().allSatisfy { $0.deviceToken == device.token })
        }
    }

    @Test("a provider token signed with another key, for another team or missing is refused with 403")
    func badProviderTokens() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let forged = try harness.providerToken(key: P256.Signing.PrivateKey())
            let badSignature = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: forged)
            #expect(badSignature.status == 403 && badSignature.reason == "InvalidProviderToken")

            let otherTeam = try harness.providerToken(teamID: "ZZZ999ZZZZ")
            let wrongTeam = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: otherTeam)
            #expect(wrongTeam.status == 403 && wrongTeam.reason == "InvalidProviderToken")

            let garbage = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: "not.a.jwt")
            #expect(garbage.status == 403 && garbage.reason == "InvalidProviderToken")

            let missing = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: .some(nil))
            #expect(missing.status == 403 && missing.reason == "MissingProviderToken")
            #expect(harness.apns.deliveries().isEmpty)
        }
    }

    @Test("a provider token whose iat is more than an hour old is ExpiredProviderToken; a fresh one is accepted")
    func expiredProviderToken() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let token = try harness.providerToken()
            let first = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: token)
            #expect(first.status == 200)

            harness.clock.advance(by: .seconds(60 * 60))
            let atOneHour = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: token)
            #expect(atOneHour.status == 200, "an hour old is not yet more than an hour old")

            harness.clock.advance(by: .seconds(1))
            let expired = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: token)
            #expect(expired.status == 403 && expired.reason == "ExpiredProviderToken")

            let renewed = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(renewed.status == 200)
        }
    }

    @Test("a new provider token within 20 minutes of the previous new one is TooManyProviderTokenUpdates; the current one still works")
    func tooManyProviderTokenUpdates() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let first = try harness.providerToken()
            let accepted = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: first)
            #expect(accepted.status == 200)

            harness.clock.advance(by: .seconds(19 * 60 + 59))
            let early = try harness.providerToken()
            let tooSoon = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: early)
            #expect(tooSoon.status == 429 && tooSoon.reason == "TooManyProviderTokenUpdates")
            let current = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: first)
            #expect(current.status == 200, "the refused update leaves the previous token current")

            harness.clock.advance(by: .seconds(1))
            let onTime = try await harness.send(
                to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, providerToken: early)
            #expect(onTime.status == 200, "20 minutes after the previous new token")
        }
    }

    @Test("the path and device token are checked: unknown token 400 BadDeviceToken, bad path 404, GET 405")
    func addressChecks() async throws {
        try await Harness.with { harness in
            let unknown = String(repeating: "ab", count: 32)
            let notFound = try await harness.send(to: unknown, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(notFound.status == 400 && notFound.reason == "BadDeviceToken")
            let short = try await harness.send(to: "abc123", headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(short.status == 400 && short.reason == "BadDeviceToken")
            let badPath = try await harness.send(
                to: unknown, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, path: "/2/device/\(unknown)")
            #expect(badPath.status == 404 && badPath.reason == "BadPath")
            let get = try await harness.send(
                to: unknown, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload, method: "GET")
            #expect(get.status == 405 && get.reason == "MethodNotAllowed")
            #expect(harness.apns.refusals().map(\.status) == [400, 400, 404, 405])
        }
    }

    @Test("a device marked unregistered answers 410 Unregistered with the time it stopped being valid")
    func unregisteredDevice() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let since = harness.clock.now
            try harness.apns.markUnregistered(token: device.token)
            harness.clock.advance(by: .seconds(90))
            let answer = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(answer.status == 410 && answer.reason == "Unregistered")
            #expect(answer.timestamp == Int64(since.timeIntervalSince1970 * 1000))
            #expect(try device.receivedNotifications().isEmpty)
        }
    }

    @Test("a payload of 4096 bytes is accepted and one of 4097 is 413 PayloadTooLarge")
    func payloadSizeLimit() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let frame = #"{"aps":{"content-changed":true},"pad":""}"#
            let fits = #"{"aps":{"content-changed":true},"pad":"\#(String(repeating: "x", count: 4096 - frame.utf8.count))"}"#
            #expect(fits.utf8.count == 4096)
            let accepted = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: fits)
            #expect(accepted.status == 200)
            let tooLarge = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: fits + " ")
            #expect(tooLarge.status == 413 && tooLarge.reason == "PayloadTooLarge")
        }
    }

    @Test("the topic, push type, expiration, collapse id and payload are checked with Apple's reasons")
    func headerAndPayloadChecks() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            func reason(_ change: (inout [String: String]) -> Void, payload: String = Harness.widgetsPayload) async throws -> String? {
                var headers = Harness.widgetsHeaders
                change(&headers)
                return try await harness.send(to: device.token, headers: headers, payload: payload).reason
            }
            #expect(try await reason { $0["apns-topic"] = nil } == "MissingTopic")
            #expect(try await reason { $0["apns-topic"] = "com.other.app.push-type.widgets" } == "BadTopic")
            #expect(try await reason { $0["apns-topic"] = Harness.bundleID } == "DeviceTokenNotForTopic")
            #expect(try await reason { $0["apns-push-type"] = "telepathy" } == "InvalidPushType")
            #expect(try await reason { $0["apns-priority"] = "7" } == "BadPriority")
            #expect(try await reason { $0["apns-expiration"] = "tomorrow" } == "BadExpirationDate")
            #expect(try await reason { $0["apns-collapse-id"] = String(repeating: "c", count: 65) } == "BadCollapseId")
            #expect(try await reason({ _ in }, payload: "") == "PayloadEmpty")
            #expect(try await reason({ _ in }, payload: "[1, 2]") == "PayloadEmpty")
            #expect(try await reason({ _ in }, payload: #"{"aps":{"content-changed":false}}"#) == "InvalidPushType")
            #expect(try await reason { $0["apns-collapse-id"] = String(repeating: "c", count: 64); $0["apns-expiration"] = "0" } == nil)
            let delivery = try #require(harness.apns.deliveries().first)
            #expect(delivery.expiration == 0 && delivery.collapseID?.count == 64)
        }
    }

    @Test("failNext answers the scripted status before any check, for one token or any, then pushes go through")
    func scriptedFaults() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let other = try harness.apns.registerDevice()
            harness.apns.failNext(1, token: device.token, status: 429, reason: "TooManyRequests")
            let otherFirst = try await harness.send(to: other.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(otherFirst.status == 200, "a token's script leaves other tokens alone")
            let throttled = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(throttled.status == 429 && throttled.reason == "TooManyRequests")
            let retried = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(retried.status == 200)

            harness.apns.failNext(2, token: nil, status: 503, reason: "ServiceUnavailable")
            let unavailable = try await harness.send(
                to: other.token, headers: [:], payload: "", providerToken: .some(nil))
            #expect(unavailable.status == 503 && unavailable.reason == "ServiceUnavailable", "before the other checks")
            let again = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(again.status == 503)
            let through = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(through.status == 200)
            #expect(harness.apns.refusals().map(\.status) == [429, 503, 503])
            #expect(harness.apns.deliveries().count == 3)

            harness.apns.failNext(5, token: nil, status: 500, reason: "InternalServerError")
            harness.apns.clearFaults()
            let cleared = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(cleared.status == 200, "clearFaults drops what was scripted")
        }
    }

    @Test("a provider key is read from its .p8 private key or from its public key in PEM")
    func providerKeyFromPEM() throws {
        let privateKey = P256.Signing.PrivateKey()
        let fromPrivate = try APNsStandInProviderKey(keyID: "K", teamID: "T", pem: privateKey.pemRepresentation)
        let fromPublic = try APNsStandInProviderKey(keyID: "K", teamID: "T", pem: privateKey.publicKey.pemRepresentation)
        #expect(fromPrivate.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        #expect(fromPublic.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        #expect(throws: APNsStandInError.invalidProviderKey(keyID: "K")) {
            try APNsStandInProviderKey(keyID: "K", teamID: "T", pem: "-----BEGIN NOTHING-----")
        }
    }

    @Test("shutting down with a provider's connection still open closes it, stops listening and returns")
    func shutdownClosesOpenConnections() async throws {
        try await Harness.with { harness in
            let device = try harness.apns.registerDevice()
            let answer = try await harness.send(to: device.token, headers: Harness.widgetsHeaders, payload: Harness.widgetsPayload)
            #expect(answer.status == 200)
            #expect(Harness.acceptsConnections(port: harness.apns.port))
            try await harness.apns.shutdown()
            #expect(!Harness.acceptsConnections(port: harness.apns.port))
        }
    }
}
