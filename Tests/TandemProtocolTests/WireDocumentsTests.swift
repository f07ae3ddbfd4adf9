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
            "issuer", "client_id", "name", "security_mode", "redirect_uris", "url_scheme", "sso_enabled", "default_scope",
            "endpoints", "passcode_policy",
        ])
        #expect(json["url_scheme"] is NSNull)
        let endpoints = try #require(json["endpoints"] as? [String: String])
        #expect(endpoints["token"] == "https://tandem.example.com/oauth/token")
        #expect(endpoints["analytics_summary"] == "https://tandem.example.com/v1/analytics/summary")
        #expect(endpoints["configuration"] == "https://tandem.example.com/v1/apps/a%2Fb/configuration")
        let decoded = try JSONDecoder().decode(AppConfigurationDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document)
    }

    @Test func aConfigurationWithoutItsPolicyOrEndpointsIsRefused() throws {
        var json = try Self.object(AppConfigurationDocument(
            issuer: "https://x.test", clientID: "c", name: "n", securityMode: "apiKey", redirectURIs: [], urlScheme: "x", ssoEnabled: false))
        json["passcode_policy"] = nil
        let body = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AppConfigurationDocument.self, from: body) }
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
}
