import Foundation
import TandemProtocol
import Testing
@testable import TandemAuth

/// A `config=` link can be opened by any web page: it must not point the app at a server the app
/// was not built for, and discovery must answer for the issuer the app asked about.
@Suite struct ServerAllowlistTests {
    static let allowlist = ["https://tandem.example.com", "http://127.0.0.1:8080"]

    static func link(server: String) throws -> URL {
        let configuration = ClientConfiguration(
            serverURL: try #require(URL(string: server)), clientID: "tandem-demo",
            redirectURI: URL(string: "tandemdemo://oauth/callback"))
        return LinkConfigurationProvider.link(for: configuration, base: try #require(URL(string: "tandemdemo://onboard")))
    }

    @Test(arguments: [
        "https://evil.example",
        "https://tandem.example.com.evil.example",
        "https://tandem.example.com@evil.example",
        "https://tandem.example.com:8443",
        "https://tandem%2Eexample.com",
        "http://tandem.example.com",
        "http://127.0.0.1:9999",
        "https://user:pw@tandem.example.com",
    ])
    func aLinkNamingAServerOutsideTheAllowlistIsRefused(server: String) throws {
        let error = #expect(throws: AuthError.self) { try provider(server).configuration() }
        switch error {
        case .serverNotAllowed, .invalidConfiguration: break
        default: Issue.record("unexpected \(String(describing: error))")
        }
    }

    @Test(arguments: ["https://tandem.example.com", "https://TANDEM.example.com/", "https://tandem.example.com:443", "http://127.0.0.1:8080"])
    func aLinkNamingAnAllowedServerIsAccepted(server: String) throws {
        #expect(try provider(server).configuration().clientID == "tandem-demo")
    }

    @Test(arguments: ["http://tandem.example.com", "http://10.0.0.1:8080", "http://127.0.0.1.evil.example"])
    func plainHTTPIsRefusedExceptOnLoopback(server: String) {
        let json = #"{"server_url":"\#(server)","client_id":"a","redirect_uri":"a://b"}"#
        #expect(throws: AuthError.self) { try ClientConfiguration(json: json) }
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://127.4.5.6", "http://localhost:3000", "http://[::1]:8080", "https://x.example"])
    func httpsAndLoopbackHTTPAreAccepted(server: String) throws {
        let json = #"{"server_url":"\#(server)","client_id":"a","redirect_uri":"a://b"}"#
        #expect(try ClientConfiguration(json: json).clientID == "a")
    }

    @Test func discoveryRefusesMetadataForAnotherIssuer() async throws {
        // A whole, well-formed document: only its issuer is wrong.
        let document = AppConfigurationDocument(
            issuer: "https://evil.example", clientID: "tandem-demo", name: "Demo", securityMode: "oauth",
            redirectURIs: ["tandemdemo://oauth/callback"], urlScheme: nil, ssoEnabled: false)
        let body = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
        let transport = FakeTransport { _ throws(AuthError) in FakeAuthorizationServer.json(200, body) }
        let server = try #require(URL(string: "https://tandem.example.com"))
        let provider = ServerConfigurationProvider(
            serverURL: server, clientID: "tandem-demo", client: HTTPClient(transport: transport), allowedServers: try ServerAllowlist([server]))
        await #expect(throws: AuthError.issuerMismatch(expected: "https://tandem.example.com", actual: "https://evil.example")) {
            try await provider.configuration()
        }
    }

    @Test func aServerConfigurationFromAServerOutsideTheAllowlistIsNotEvenFetched() async throws {
        let transport = FakeTransport { _ throws(AuthError) in FakeAuthorizationServer.json(500, "{}") }
        let allowlist = try ServerAllowlist([try #require(URL(string: "https://tandem.example.com"))])
        let provider = ServerConfigurationProvider(
            serverURL: try #require(URL(string: "https://evil.example")), clientID: "x", client: HTTPClient(transport: transport),
            allowedServers: allowlist)
        await #expect(throws: AuthError.serverNotAllowed("https://evil.example is not one of the servers this app was built for")) {
            try await provider.configuration()
        }
        #expect(transport.requests.isEmpty)
    }

    private func provider(_ server: String) throws -> LinkConfigurationProvider {
        LinkConfigurationProvider(url: try Self.link(server: server), allowedServers: try ServerAllowlist(Self.allowlist.compactMap(URL.init(string:))))
    }
}
