import Foundation
import TandemProtocol
import Testing

/// The documents the server encodes and the SDK decodes, each defined once in TandemProtocol:
/// their keys are the documented snake_case ones, a round trip keeps every field, and a body of
/// another shape is refused rather than half-read.
struct WireDocumentsTests {
    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test func theAppConfigurationDocumentHasItsDocumentedKeysAndANullScheme() throws {
        let document = AppConfigurationDocument(
            issuer: "https://tandem.example.com/", clientID: "a/b", name: "Sales", securityMode: "oauth",
            redirectURIs: ["sales://oauth/callback"], urlScheme: nil, ssoEnabled: true)
        let json = try Self.object(document)
        #expect(Set(json.keys) == [
            "issuer", "client_id", "name", "security_mode", "redirect_uris", "url_scheme", "sso_enabled", "sso_link_host",
            "default_scope", "endpoints", "passcode_policy", "lock_screen_redaction", "dpop_required", "action_policy",
        ])
        #expect(json["action_policy"] as? [String: String] == ["step_up_above": "1000.00", "amount_field": "Amount"], "the default policy")
        #expect(json["lock_screen_redaction"] as? Bool == true, "on unless the app turns it off")
        #expect(json["dpop_required"] as? Bool == false, "off unless the app turns it on")
        #expect(json["url_scheme"] is NSNull)
        #expect(json["sso_link_host"] is NSNull)
        let endpoints = try #require(json["endpoints"] as? [String: String])
        #expect(endpoints["token"] == "https://tandem.example.com/oauth/token")
        #expect(endpoints["analytics_summary"] == "https://tandem.example.com/v1/analytics/summary")
        #expect(endpoints["configuration"] == "https://tandem.example.com/v1/apps/a%2Fb/configuration")
        let decoded = try JSONDecoder().decode(AppConfigurationDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document)
        var universal = document
        universal.ssoLinkHost = "links.example.com"
        #expect(try JSONDecoder().decode(AppConfigurationDocument.self, from: JSONEncoder().encode(universal)) == universal)
    }

    @Test func anOlderServersConfigurationWithoutTheLockScreenPolicyHasItOn() throws {
        var json = try Self.object(AppConfigurationDocument(
            issuer: "https://x.test", clientID: "c", name: "n", securityMode: "oauth", redirectURIs: [], urlScheme: nil, ssoEnabled: false,
            lockScreenRedaction: false))
        #expect(json["lock_screen_redaction"] as? Bool == false)
        #expect(try JSONDecoder().decode(AppConfigurationDocument.self, from: JSONSerialization.data(withJSONObject: json)).lockScreenRedaction == false)
        json["lock_screen_redaction"] = nil
        let older = try JSONDecoder().decode(AppConfigurationDocument.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(older.lockScreenRedaction)
    }

    @Test func aConfigurationWithoutItsPolicyOrEndpointsIsRefused() throws {
        var json = try Self.object(AppConfigurationDocument(
            issuer: "https://x.test", clientID: "c", name: "n", securityMode: "apiKey", redirectURIs: [], urlScheme: "x", ssoEnabled: false))
        json["passcode_policy"] = nil
        let body = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AppConfigurationDocument.self, from: body) }
    }

    @Test func thePasscodePolicySaysWhetherBiometricsAreAllowedAndAnOlderServersPolicyAllowsThem() throws {
        let json = try Self.object(PasscodePolicyDocument(biometricsAllowed: false))
        #expect(json["biometrics_allowed"] as? Bool == false)
        #expect(try Self.object(PasscodePolicyDocument.default)["biometrics_allowed"] as? Bool == true)
        let older = Data(
            #"{"attempts_before_delay":5,"initial_delay_seconds":30,"lock_seconds":3600,"maximum_attempts":10,"maximum_delay_seconds":3600,"minimum_length":6,"on_limit":"lock","required_character_classes":[]}"#
                .utf8)
        #expect(try JSONDecoder().decode(PasscodePolicyDocument.self, from: older) == .default)
        let refused = Data(
            #"{"attempts_before_delay":5,"biometrics_allowed":"no","initial_delay_seconds":30,"lock_seconds":3600,"maximum_attempts":10,"maximum_delay_seconds":3600,"minimum_length":6,"on_limit":"lock","required_character_classes":[]}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PasscodePolicyDocument.self, from: refused) }
    }

    @Test func theDestinationListingLinksEachEntitySetsFirstPage() throws {
        let listing = DestinationListing(destinations: [
            .init(name: "sales", title: "Sales", entitySets: [
                .init(name: "Orders/Open", destination: "sales", count: 3, updatedAt: "2026-01-05T08:00:00Z"),
            ]),
        ])
        let json = try Self.object(listing)
        let destination = try #require((json["destinations"] as? [[String: Any]])?.first)
        let set = try #require((destination["entity_sets"] as? [[String: Any]])?.first)
        #expect(Set(set.keys) == ["name", "count", "updated_at", "href"])
        #expect(set["href"] as? String == "/v1/destinations/sales/Orders%2FOpen")
        #expect(try JSONDecoder().decode(DestinationListing.self, from: JSONEncoder().encode(listing)) == listing)
    }

    @Test func tandemsServerMetadataListsEveryEndpointUnderTheIssuer() throws {
        let metadata = AuthorizationServerMetadata(issuer: "http://127.0.0.1:8080")
        let json = try Self.object(metadata)
        #expect(json["token_endpoint"] as? String == "http://127.0.0.1:8080/oauth/token")
        #expect(json["jwks_uri"] as? String == "http://127.0.0.1:8080/.well-known/jwks.json")
        #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(json["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
    }

    @Test func anotherServersMetadataWithOnlyTheRequiredFieldsIsRead() throws {
        let body = Data(#"{"issuer":"https://idp.example","token_endpoint":"https://idp.example/token","response_types_supported":["code"]}"#.utf8)
        let metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: body)
        #expect(metadata.tokenEndpoint == "https://idp.example/token")
        #expect(metadata.revocationEndpoint == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AuthorizationServerMetadata.self, from: Data(#"{"issuer":"https://idp.example"}"#.utf8))
        }
    }

    @Test func anEntitySetPageIsWrittenWithItsRowsAsTheyAreAndReadBack() throws {
        let next = APIPath.entitySet(destination: "sales", entitySet: "Orders/Open", limit: 2, offset: 2)
        let body = EntitySetPageDocument.json(rows: [#"{"ID":1,"Name":"A"}"#, #"{"ID":2,"Name":"B \"q\""}"#], limit: 2, next: next, offset: 0, total: 3)
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"items":[{"ID":1,"Name":"A"},{"ID":2,"Name":"B \"q\""}],"limit":2,"next":"/v1/destinations/sales/Orders%2FOpen?limit=2&offset=2","offset":0,"total":3}"#)
        let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: JSONValue]>.self, from: Data(body))
        #expect(page.items == [["ID": .number(1), "Name": .string("A")], ["ID": .number(2), "Name": .string("B \"q\"")]])
        #expect(page.next == next && page.limit == 2 && page.offset == 0 && page.total == 3)
        let last = EntitySetPageDocument.json(rows: [], limit: 2, next: nil, offset: 4, total: 3)
        #expect(String(decoding: last, as: UTF8.self) == #"{"items":[],"limit":2,"next":null,"offset":4,"total":3}"#)
        // A next path that needed escaping would still be a JSON string.
        let odd = EntitySetPageDocument.json(rows: [], limit: 1, next: "a\"b\\c\n", offset: 0, total: 0)
        #expect(try JSONDecoder().decode(EntitySetPageDocument.Page<JSONValue>.self, from: Data(odd)).next == "a\"b\\c\n")
    }

    @Test func aBackendPageMayNotKnowItsTotalAndMayBeStale() throws {
        let unknown = EntitySetPageDocument.json(rows: [#"{"id":"1"}"#], limit: 1, next: nil, offset: 0, total: nil)
        #expect(String(decoding: unknown, as: UTF8.self) == #"{"items":[{"id":"1"}],"limit":1,"next":null,"offset":0,"total":null}"#)
        let stale = EntitySetPageDocument.json(rows: [#"{"id":"1"}"#], limit: 1, next: nil, offset: 0, total: 1, staleSince: "2026-12-07T08:00:00.000Z")
        #expect(String(decoding: stale, as: UTF8.self)
            == #"{"fetchedAt":"2026-12-07T08:00:00.000Z","items":[{"id":"1"}],"limit":1,"next":null,"offset":0,"stale":true,"total":1}"#)
        let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: Data(stale))
        #expect(page.stale == true && page.fetchedAt == "2026-12-07T08:00:00.000Z" && page.total == 1)
        let fresh = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: Data(unknown))
        #expect(fresh.stale == nil && fresh.total == nil)
    }

    @Test func anEventBatchHasTheShapeTheServerReads() throws {
        let batch = EventBatchDocument(events: [
            .init(id: "5f0c6b5e-8a7e-4c47-9d6a-3f5b1f6f2a10", name: "widget.tap", timestamp: "2026-01-05T08:00:00.000Z", properties: ["kind": .string("business-data")]),
            .init(id: "6f0c6b5e-8a7e-4c47-9d6a-3f5b1f6f2a10", name: "widget.render", timestamp: "2026-01-05T08:00:01.000Z"),
        ])
        let json = try Self.object(batch)
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(Set(events[0].keys) == ["id", "name", "timestamp", "properties"])
        #expect((events[0]["properties"] as? [String: String]) == ["kind": "business-data"])
        #expect(try JSONDecoder().decode(EventBatchDocument.self, from: JSONEncoder().encode(batch)) == batch)
    }
}
