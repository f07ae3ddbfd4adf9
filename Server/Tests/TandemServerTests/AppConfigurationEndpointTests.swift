import Foundation
import TandemServer
import Testing

/// `GET /v1/apps/{clientId}/configuration` over real HTTP.
@Suite("App configuration endpoint over HTTP")
struct AppConfigurationEndpointTests {
    @Test("the demo app's configuration names its endpoints, security, SSO and stored passcode policy; cacheable with an ETag")
    func demoAppConfiguration() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, base, _ in
            let client = HTTPTestClient()
            let response = try await client.get(base, "v1/apps/tandem-demo/configuration", headers: [:])
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
            #expect(object["default_scope"] as? String == OAuthScope.userDefault)
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

            let cached = try await client.get(base, "v1/apps/tandem-demo/configuration", headers: ["If-None-Match": tag])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
        }
    }

    @Test("an app without a stored policy gets the server default; a URL scheme it lacks is null")
    func kioskGetsDefaultPolicy() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, base, _ in
            let response = try await HTTPTestClient().get(base, "v1/apps/tandem-demo-kiosk/configuration", headers: [:])
            #expect(response.status == 200)
            let object = response.object
            #expect(object["security_mode"] as? String == "apiKey")
            #expect(object["url_scheme"] is NSNull)
            #expect(object["redirect_uris"] as? [String] == [])
            let policy = try #require(object["passcode_policy"] as? [String: Any])
            #expect(policy["minimum_length"] as? Int == 6)
            #expect(policy["required_character_classes"] as? [String] == [])
            #expect(policy["attempts_before_delay"] as? Int == 5)
        }
    }

    @Test("an unknown client id gets a 404 JSON error")
    func unknownClient() async throws {
        try await BusinessDataFixture.withServer(.sqlite) { _, base, _ in
            let response = try await HTTPTestClient().get(base, "v1/apps/nobody/configuration", headers: [:])
            #expect(response.status == 404)
            #expect(response.json["error"] == "not_found")
            #expect(response.json["error_description"]?.contains("nobody") == true)
        }
    }
}
