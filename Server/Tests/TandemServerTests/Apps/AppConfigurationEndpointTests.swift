import Foundation
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// `GET /v1/apps/{clientId}/configuration` through the server built in process.
@Suite("App configuration endpoint over HTTP")
struct AppConfigurationEndpointTests {
    @Test("the demo app's configuration names its endpoints, security, SSO and stored passcode policy; cacheable with an ETag")
    func demoAppConfiguration() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, _ in
            let response = try await client.get("v1/apps/tandem-demo/configuration", headers: [:])
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=300")
            let tag = try #require(response.header("ETag"))
            let object = response.object
            let issuer = BusinessDataFixture.issuer
            #expect(object["issuer"] as? String == issuer)
            #expect(object["client_id"] as? String == "tandem-demo")
            #expect(object["name"] as? String == "Tandem Demo")
            #expect(object["security_mode"] as? String == "oauth")
            #expect(object["redirect_uris"] as? [String] == ["tandem-demo://oauth/callback", "http://127.0.0.1/callback"])
            #expect(object["url_scheme"] as? String == "tandem-demo")
            #expect(object["sso_enabled"] as? Bool == true)
            #expect(object["default_scope"] as? String == OAuthScope.userGrantable, "the demo's approvals list the demo app: it asks for actions")
            let endpoints = try #require(object["endpoints"] as? [String: String])
            #expect(endpoints["token"] == issuer + "/oauth/token")
            #expect(endpoints["authorization"] == issuer + "/oauth/authorize")
            #expect(endpoints["revocation"] == issuer + "/oauth/revoke")
            #expect(endpoints["introspection"] == issuer + "/oauth/introspect")
            #expect(endpoints["resources"] == issuer + "/v1/destinations")
            #expect(endpoints["events"] == issuer + "/v1/events")
            #expect(endpoints["configuration"] == issuer + "/v1/apps/tandem-demo/configuration")
            let policy = try #require(object["passcode_policy"] as? [String: Any])
            #expect(policy["minimum_length"] as? Int == 6)
            #expect(policy["required_character_classes"] as? [String] == ["digit"])
            #expect(policy["maximum_attempts"] as? Int == 10)
            #expect(policy["on_limit"] as? String == "lock")
            #expect(policy["lock_seconds"] as? Double == 3600)
            #expect(policy["biometrics_allowed"] as? Bool == true, "Face ID is allowed unless the app's policy forbids it")

            let cached = try await client.get("v1/apps/tandem-demo/configuration", headers: ["If-None-Match": tag])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
        }
    }

    @Test("an app without a stored policy gets the server default; a URL scheme it lacks is null")
    func kioskGetsDefaultPolicy() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, _ in
            let response = try await client.get("v1/apps/tandem-demo-kiosk/configuration", headers: [:])
            #expect(response.status == 200)
            let object = response.object
            #expect(object["security_mode"] as? String == "apiKey")
            #expect(object["url_scheme"] is NSNull)
            #expect(object["redirect_uris"] as? [String] == [])
            let policy = try #require(object["passcode_policy"] as? [String: Any])
            #expect(policy["minimum_length"] as? Int == 6)
            #expect(policy["required_character_classes"] as? [String] == [])
            #expect(policy["attempts_before_delay"] as? Int == 5)
            #expect(policy["biometrics_allowed"] as? Bool == true)
        }
    }

    @Test("an app whose stored policy forbids Face ID and Touch ID serves biometrics_allowed false")
    func storedPolicyForbiddingBiometrics() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, database in
            let forbidding = PasscodePolicyDocument(minimumLength: 8, requiredCharacterClasses: [.digit], biometricsAllowed: false)
            try await database.withStorage { storage in
                try await storage.apps.setPasscodePolicy(forbidding, clientID: "tandem-demo", now: Timestamp(Date(timeIntervalSince1970: 1_800_000_000)))
            }
            let response = try await client.get("v1/apps/tandem-demo/configuration", headers: [:])
            #expect(response.status == 200)
            let document = try JSONDecoder().decode(AppConfigurationDocument.self, from: response.body)
            #expect(document.passcodePolicy == forbidding)
            #expect((response.object["passcode_policy"] as? [String: Any])?["biometrics_allowed"] as? Bool == false)
        }
    }

    @Test("percent-encoded path segments name the same app and data as their decoded form")
    func percentEncodedSegmentsAreDecoded() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { fixture, client, database in
            try await database.withStorage { storage in
                try await ServerAdministration(database: storage).createApp(
                    clientID: "acme:kiosk", name: "Acme kiosk", redirectURIs: [], urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
            }
            let encoded = try await client.get("v1/apps/acme%3Akiosk/configuration", headers: [:])
            #expect(encoded.status == 200)
            let link = try #require(
                (try JSONSerialization.jsonObject(with: encoded.body) as? [String: Any])
                    .flatMap { $0["endpoints"] as? [String: Any] }?["configuration"] as? String)
            let linkPath = try #require(URLComponents(string: link)?.percentEncodedPath)
            #expect(linkPath == "/v1/apps/acme%3Akiosk/configuration")
            let linked = try await client.get(String(linkPath.dropFirst()), headers: [:])
            #expect(linked.status == 200, "the server's own link resolves: \(link)")
            let page = try await client.get("v1/destinations/sal%65s/Customers?limit=1", headers: ["X-API-Key": fixture.apiKey])
            #expect(page.status == 200)
        }
    }

    @Test("an unknown client id gets a 404 JSON error")
    func unknownClient() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, client, _ in
            let response = try await client.get("v1/apps/nobody/configuration", headers: [:])
            #expect(response.status == 404)
            #expect(response.json["error"] == "not_found")
            #expect(response.json["error_description"]?.contains("nobody") == true)
        }
    }
}
