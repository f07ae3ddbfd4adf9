import Foundation
import TandemProtocol
import Testing

@testable import TandemAuth

@Suite struct ConfigurationTests {
    let json = """
        {"server_url":"https://tandem.example.com","client_id":"tandem-demo","redirect_uri":"tandemdemo://oauth/callback",
         "url_scheme":"tandemdemo","security_mode":"oauth","scope":"data.read offline_access"}
        """

    @Test func jsonConfigurationDecodes() throws {
        let configuration = try ClientConfiguration(json: json)
        #expect(configuration.serverURL == URL(string: "https://tandem.example.com"))
        #expect(configuration.clientID == "tandem-demo")
        #expect(configuration.redirectURI == URL(string: "tandemdemo://oauth/callback"))
        #expect(configuration.urlScheme == "tandemdemo")
        #expect(configuration.securityMode == .oauth)
        #expect(configuration.scopes == ["data.read", "offline_access"])
    }

    @Test(arguments: [
        "not json",
        "{}",
        #"{"server_url":"https://x.test"}"#,
        #"{"server_url":"ftp://x.test","client_id":"a","redirect_uri":"a://b"}"#,
        #"{"server_url":"https://x.test","client_id":"","redirect_uri":"a://b"}"#,
        #"{"server_url":"https://x.test","client_id":"a"}"#,
        #"{"server_url":"https://x.test","client_id":"a","redirect_uri":"a://b","security_mode":"magic"}"#,
        #"{"server_url":"https://x.test","client_id":"a","redirect_uri":"a://b","passcode_policy":{"minimum_length":6}}"#,
    ])
    func malformedJSONIsATypedError(text: String) {
        let error = #expect(throws: AuthError.self) { try ClientConfiguration(json: text) }
        #expect(Self.isInvalidConfiguration(error))
    }

    @Test func apiKeyModeNeedsNoRedirectURI() throws {
        let configuration = try ClientConfiguration(json: #"{"server_url":"http://127.0.0.1:8080","client_id":"k","security_mode":"apiKey"}"#)
        #expect(configuration.securityMode == .apiKey)
        #expect(configuration.redirectURI == nil)
    }

    @Test func linkConfigurationRoundTrips() throws {
        var configuration = try ClientConfiguration(json: json)
        configuration.passcodePolicy = PasscodePolicyDocument(minimumLength: 4, onLimit: .wipe)
        let link = LinkConfigurationProvider.link(for: configuration, base: URL(string: "tandemdemo://onboard")!)
        #expect(link.absoluteString.hasPrefix("tandemdemo://onboard?config="))
        let allowlist = try ServerAllowlist([configuration.serverURL])
        #expect(try LinkConfigurationProvider(url: link, allowedServers: allowlist).configuration() == configuration)
    }

    @Test(arguments: [
        "tandemdemo://onboard",
        "tandemdemo://onboard?other=1",
        "tandemdemo://onboard?config=",
        "tandemdemo://onboard?config=!!!!",
        "tandemdemo://onboard?config=bm90IGpzb24",  // "not json"
        "tandemdemo://onboard?config=e30&config=e30",
    ])
    func malformedLinksAreTypedErrors(link: String) throws {
        let url = try #require(URL(string: link))
        let allowlist = try ServerAllowlist([try #require(URL(string: "https://x.test"))])
        let error = #expect(throws: AuthError.self) { try LinkConfigurationProvider(url: url, allowedServers: allowlist).configuration() }
        #expect(Self.isInvalidConfiguration(error))
    }

    @Test func serverConfigurationDocumentIsRead() async throws {
        let document = """
            {"issuer":"http://127.0.0.1:8080","client_id":"tandem-demo","name":"Tandem Demo","security_mode":"oauth",
             "redirect_uris":["tandemdemo://oauth/callback"],"url_scheme":"tandemdemo","sso_enabled":true,
             "default_scope":"data.read data.write events.write offline_access",
             "endpoints":{"authorization":"http://127.0.0.1:8080/oauth/authorize","token":"http://127.0.0.1:8080/oauth/token",
               "revocation":"http://127.0.0.1:8080/oauth/revoke","introspection":"http://127.0.0.1:8080/oauth/introspect",
               "metadata":"http://127.0.0.1:8080/.well-known/oauth-authorization-server",
               "jwks":"http://127.0.0.1:8080/.well-known/jwks.json","resources":"http://127.0.0.1:8080/v1/destinations",
               "events":"http://127.0.0.1:8080/v1/events","analytics_summary":"http://127.0.0.1:8080/v1/analytics/summary",
               "configuration":"http://127.0.0.1:8080/v1/apps/tandem-demo/configuration"},
             "passcode_policy":{"attempts_before_delay":5,"initial_delay_seconds":30,"lock_seconds":3600,"maximum_attempts":10,
               "maximum_delay_seconds":3600,"minimum_length":8,"on_limit":"lock","required_character_classes":["digit"]}}
            """
        let transport = FakeTransport { _ throws(AuthError) in FakeAuthorizationServer.json(200, document) }
        let provider = ServerConfigurationProvider(
            serverURL: URL(string: "http://127.0.0.1:8080")!, clientID: "tandem-demo", client: HTTPClient(transport: transport),
            allowedServers: try ServerAllowlist([URL(string: "http://127.0.0.1:8080")!]))
        let configuration = try await provider.configuration()
        #expect(transport.requests.first?.url.absoluteString == "http://127.0.0.1:8080/v1/apps/tandem-demo/configuration")
        #expect(configuration.clientID == "tandem-demo")
        #expect(configuration.name == "Tandem Demo")
        #expect(configuration.redirectURI == URL(string: "tandemdemo://oauth/callback"))
        #expect(configuration.scopes == ["data.read", "data.write", "events.write", "offline_access"])
        #expect(configuration.passcodePolicy == PasscodePolicyDocument(minimumLength: 8, requiredCharacterClasses: [.digit]))
    }

    @Test func dpopRequiredComesFromTheServersDocument() async throws {
        for required in [false, true] {
            let document = AppConfigurationDocument(
                issuer: "https://tandem.example.com", clientID: "tandem-demo", name: "Demo", securityMode: "oauth",
                redirectURIs: ["tandemdemo://oauth/callback"], urlScheme: "tandemdemo", ssoEnabled: false, dpopRequired: required)
            let body = try JSONEncoder().encode(document)
            let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 200, body: body) }
            let server = URL(string: "https://tandem.example.com")!
            let configuration = try await ServerConfigurationProvider(
                serverURL: server, clientID: "tandem-demo", client: HTTPClient(transport: transport), allowedServers: try ServerAllowlist([server])
            ).configuration()
            #expect(configuration.dpopRequired == required)
        }
    }

    @Test func dpopRequiredIsOffByDefaultAndInTheJSONFormOnlyWhenOn() throws {
        var configuration = try ClientConfiguration(json: json)
        #expect(!configuration.dpopRequired)
        #expect(!String(decoding: configuration.jsonData(), as: UTF8.self).contains("dpop"), "an app without DPoP encodes as before")
        configuration.dpopRequired = true
        let text = String(decoding: configuration.jsonData(), as: UTF8.self)
        #expect(text.contains(#""dpop_required":true"#))
        #expect(try ClientConfiguration(json: text).dpopRequired)
    }

    @Test func unknownAppAndBrokenDocumentsAreTypedErrors() async throws {
        let notFound = FakeTransport { _ throws(AuthError) in
            FakeAuthorizationServer.json(404, #"{"error":"not_found","error_description":"no app"}"#)
        }
        await #expect(throws: AuthError.server(status: 404, code: "not_found", description: "no app")) {
            try await ServerConfigurationProvider(serverURL: Self.server, clientID: "x", client: HTTPClient(transport: notFound), allowedServers: try ServerAllowlist([Self.server]))
                .configuration()
        }
        let broken = FakeTransport { _ throws(AuthError) in FakeAuthorizationServer.json(200, #"{"issuer":1}"#) }
        await #expect(throws: AuthError.invalidConfiguration("the server's configuration document is not the documented JSON")) {
            try await ServerConfigurationProvider(serverURL: Self.server, clientID: "x", client: HTTPClient(transport: broken), allowedServers: try ServerAllowlist([Self.server]))
                .configuration()
        }
    }

    static let server = URL(string: "https://s.test")!

    static func isInvalidConfiguration(_ error: AuthError?) -> Bool {
        if case .invalidConfiguration = error { true } else { false }
    }
}
