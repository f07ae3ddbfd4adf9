import Foundation
import PropertyBased
import TandemProtocol
import Testing

/// The rules the client and the server both apply, written once: percent-encoding, the resource
/// paths and the analytics batch rules.
struct WireRulesTests {
    @Test func onlyASCIIUnreservedBytesStayUnencoded() {
        #expect(FormEncoding.escape("AZaz09-._~") == "AZaz09-._~")
        #expect(FormEncoding.escape("a b+c&d=e/f?g") == "a%20b%2Bc%26d%3De%2Ff%3Fg")
        // Non-ASCII letters are encoded as UTF-8 bytes: `CharacterSet.alphanumerics` would keep them.
        #expect(FormEncoding.escape("é") == "%C3%A9")
        #expect(FormEncoding.escape("🙂") == "%F0%9F%99%82")
        #expect(FormEncoding.escape("") == "")
    }

    /// The hand-written escaping against Foundation's, over random text of the Basic Multilingual
    /// Plane below the surrogates (one to three UTF-8 bytes each); four-byte letters are above.
    @Test func itEscapesAsFoundationDoesWithTheUnreservedSet() async {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        await propertyCheck(count: 1000, input: Gen.character(in: "\u{0}"..."\u{D7FF}").string(of: 0...24)) { text in
            #expect(FormEncoding.escape(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
    }

    @Test func aQueryKeepsOrderAndLeavesOutNilValues() {
        #expect(FormEncoding.query([("b", "2"), ("a", nil), ("c", "x y")]) == "b=2&c=x%20y")
        #expect(FormEncoding.encode([("grant_type", "refresh_token")]) == Data("grant_type=refresh_token".utf8))
    }

    @Test func pathsEncodeEachSegment() {
        #expect(APIPath.appConfiguration(clientID: "a/b é") == "/v1/apps/a%2Fb%20%C3%A9/configuration")
        #expect(APIPath.entitySet(destination: "sales", entitySet: "Orders/Open") == "/v1/destinations/sales/Orders%2FOpen")
        #expect(APIPath.entitySet(destination: "s", entitySet: "e", limit: 5, offset: 10) == "/v1/destinations/s/e?limit=5&offset=10")
        #expect(APIPath.entitySet(destination: "s", entitySet: "e", limit: 5) == "/v1/destinations/s/e?limit=5")
    }

    @Test func eventNamesAreShortASCIIWords() {
        #expect(EventBatchRules.isValidName("widget.tap"))
        #expect(EventBatchRules.isValidName("a_B-9"))
        #expect(EventBatchRules.isValidName(String(repeating: "x", count: EventBatchRules.maximumNameLength)))
        #expect(!EventBatchRules.isValidName(String(repeating: "x", count: EventBatchRules.maximumNameLength + 1)))
        #expect(!EventBatchRules.isValidName(""))
        #expect(!EventBatchRules.isValidName("widget tap"))
        #expect(!EventBatchRules.isValidName("wïdget"))
        #expect(!EventBatchRules.isValidName("widget/tap"))
    }
}
