import TandemProtocol
import Testing

/// The one rule for client ids and URL schemes (security finding 13 and the generator's checks).
@Suite("App identifier rules")
struct AppIdentifierRulesTests {
    @Test("an app's own scheme is accepted", arguments: ["sales", "tandem-demo", "com.example.app", "x", "a1+b.c-d"])
    func ownSchemes(scheme: String) {
        #expect(AppIdentifierRules.isValidURLScheme(scheme))
    }

    @Test(
        "the web's and the system's schemes, uppercase, odd characters, a trailing line break and overlong schemes are refused",
        arguments: [
            "https", "http", "javascript", "data", "file", "mailto", "tel", "itms-services", "Sales", "1sales", "-x", "", "sa les",
            "sales\n", "sales:", "sales/", "säles", String(repeating: "a", count: 65),
        ])
    func refusedSchemes(scheme: String) {
        #expect(!AppIdentifierRules.isValidURLScheme(scheme))
    }

    @Test("a client id is 1 to 128 visible ASCII characters", arguments: ["tandem-demo", "acme:kiosk", "a", "x.y_z~1", String(repeating: "c", count: 128)])
    func goodClientIDs(clientID: String) {
        #expect(AppIdentifierRules.isValidClientID(clientID))
    }

    @Test("control characters, spaces, non-ASCII and overlong client ids are refused", arguments: [
        "", "a b", "tandem-demo\n", "a\tb", "a\u{7F}", "é", "a\u{202E}b", String(repeating: "c", count: 129),
    ])
    func refusedClientIDs(clientID: String) {
        #expect(!AppIdentifierRules.isValidClientID(clientID))
    }

    @Test("a link host is a lowercase DNS name of two labels or more", arguments: ["links.example.com", "a.b", "sso-1.acme.co.uk", "x1.example"])
    func goodLinkHosts(host: String) {
        #expect(AppIdentifierRules.isValidLinkHost(host))
    }

    @Test("schemes, ports, paths, addresses, uppercase, edge hyphens and stray characters are refused as link hosts", arguments: [
        "", "example", "https://links.example.com", "links.example.com:443", "links.example.com/sso", "127.0.0.1",
        "Links.example.com", "-a.example.com", "a-.example.com", "links.example.com.", "links..example.com",
        "links.example.com\n", "links.exam\u{202E}ple.com", "lïnks.example.com", String(repeating: "a", count: 64) + ".com",
    ])
    func refusedLinkHosts(host: String) {
        #expect(!AppIdentifierRules.isValidLinkHost(host))
    }

    @Test("an Apple app id is a ten-character team id, a dot and a bundle id", arguments: [
        "ABCDE12345.com.example.sales", "0123456789.x", "ABCDE12345.com.Example-App",
    ])
    func goodAppleAppIDs(appID: String) {
        #expect(AppIdentifierRules.isValidAppleAppID(appID))
    }

    @Test("other app ids are refused", arguments: [
        "", "ABCDE1234.com.example", "abcde12345.com.example", "ABCDE12345.", "ABCDE12345..x", "ABCDE12345.com.example.",
        "ABCDE12345.com.example\n", "ABCDE12345.com/example", "ABCDE12345.com.ex\u{202E}ample", "ABCDE12345com.example",
    ])
    func refusedAppleAppIDs(appID: String) {
        #expect(!AppIdentifierRules.isValidAppleAppID(appID))
    }
}
