import Foundation
import TandemHost
import TandemWidgetModel
import TandemWidgets
import Testing

@Suite("Deep links: rejections")
struct DeepLinkRejectionTests {
    let router = DeepLinkRouter(scheme: "acme")
    /// `{"destination":"berlin","entitySet":"open"}` in base64url.
    static let config = "eyJkZXN0aW5hdGlvbiI6ImJlcmxpbiIsImVudGl0eVNldCI6Im9wZW4ifQ"
    static let tap = "acme://widget/orders?family=systemSmall&config=\(config)"

    static let badLinks: [(String, DeepLinkError)] = [
        ("other://widget/orders?family=systemSmall&config=\(config)", .wrongScheme(expected: "acme", found: "other")),
        ("https://evil.example/widget/orders", .wrongScheme(expected: "acme", found: "https")),
        ("acme:widget/orders", .malformedURL),
        ("1acme://widget/orders", .malformedURL),
        ("acme://elsewhere/orders", .unknownRoute("elsewhere/orders")),
        ("acme://widget", .unknownRoute("widget")),
        ("acme://widget/", .unknownRoute("widget/")),
        ("acme://widget/orders/extra?family=systemSmall&config=\(config)", .unknownRoute("widget/orders/extra")),
        ("acme://widget/%6Frders?family=systemSmall&config=\(config)", .unknownRoute("widget/%6Frders")),
        ("acme://user@widget/orders", .unknownRoute("authority")),
        ("acme://widget:80/orders", .unknownRoute("authority")),
        ("\(tap)#top", .unknownRoute("fragment")),
        ("acme://widget/orders?family=systemSmall", .missingParameter("config")),
        ("acme://widget/orders?config=\(config)", .missingParameter("family")),
        ("\(tap)&target=", .missingParameter("target")),
        ("acme://onboard", .missingParameter("config")),
        ("acme://oauth/callback?code=abc", .missingParameter("state")),
        ("\(tap)&family=systemLarge", .duplicateParameter("family")),
        ("\(tap)&target=a&target=b", .duplicateParameter("target")),
        ("\(tap)&redirect=https://evil.example", .unexpectedParameter("redirect")),
        ("\(tap)&target", .malformedURL),
        ("\(tap)&&target=a", .malformedURL),
        ("\(tap)&target=\(String(repeating: "a", count: 300))", .oversizedParameter("target", limit: 256)),
        ("acme://widget/orders?family=systemSmall&config=\(String(repeating: "A", count: 2_100))", .oversizedParameter("config", limit: 2_048)),
        ("\(tap)&target=\(String(repeating: "a", count: 5_000))", .urlTooLong(limit: 4_096)),
        (tap + String(repeating: "&utm_term=x", count: 16), .oversizedParameter("query", limit: 16)),
        ("\(tap)&target=%2541", .doubleEncoding("target")),
        ("\(tap)&target=%252F", .doubleEncoding("target")),
        ("\(tap)&target=a%26admin%3Dtrue", .encodedSeparator("target")),
        ("\(tap)&target=..%2F..%2Fsettings", .encodedSeparator("target")),
        ("\(tap)&target=%23frag", .encodedSeparator("target")),
        ("\(tap)&target=a%5Cb", .encodedSeparator("target")),
        ("\(tap)&target=a%00b", .controlCharacter("target")),
        ("\(tap)&target=line%0Abreak", .controlCharacter("target")),
        ("\(tap)&target=%C2%85", .controlCharacter("target")),
        ("\(tap)&target=%zz", .invalidPercentEncoding("target")),
        ("\(tap)&target=%4", .invalidPercentEncoding("target")),
        ("\(tap)&target=%C3%28", .invalidPercentEncoding("target")),
        ("\(tap)&target=a b", .invalidCharacter),
        ("\(tap)&target=a\u{0}b", .invalidCharacter),
        ("\(tap)&target=Zürich", .invalidCharacter),
        ("\(tap)&target=<script>", .invalidCharacter),
        ("acme://widget/orders?family=systemHuge&config=\(config)", .invalidParameterValue("family")),
        ("acme://widget/orders?family=systemSmall&config=not*base64", .undecodableConfiguration),
        ("acme://widget/orders?family=systemSmall&config=WzEsMl0", .undecodableConfiguration),
        ("acme://widget/orders?family=systemSmall&config=eyJhIjox", .undecodableConfiguration),
        ("acme://widget/orders?family=systemSmall&config=e30=", .invalidParameterValue("config")),
        ("acme://widget/orders?family=systemSmall&config=e31", .undecodableConfiguration),
        ("acme://onboard?config=%21%21", .undecodableConfiguration),
    ]

    @Test(arguments: badLinks)
    func malformedOrForeignLinksAreRefusedWithTheirReason(link: String, expected: DeepLinkError) {
        #expect(throws: expected) { try router.route(string: link) }
    }

    @Test func theValidBaseOfTheseCasesIsAccepted() throws {
        #expect(throws: Never.self) { try router.route(string: Self.tap) }
        #expect(throws: Never.self) { try router.route(string: "\(Self.tap)&target=order/42&utm_source=widget") }
    }

    @Test func aConfigurationOfTheWrongShapeDoesNotDecode() throws {
        struct Other: Decodable { var accountNumber: Int }
        guard case .widgetTap(_, _, let configuration, _, _) = try router.route(string: Self.tap) else {
            Issue.record("not a widget tap")
            return
        }
        #expect(throws: DeepLinkError.undecodableConfiguration) { try configuration.decode(as: Other.self) }
        #expect(try configuration.decode(as: OrdersConfiguration.self) == OrdersConfiguration(destination: "berlin", entitySet: "open"))
    }
}
