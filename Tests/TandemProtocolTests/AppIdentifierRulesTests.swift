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
}
