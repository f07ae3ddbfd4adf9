import Foundation
import Testing

@testable import TandemBackends

/// The strict RFC 8259 parser: exact number text, member order, escapes, and every refusal.
@Suite("Backend JSON")
struct BackendJSONTests {
    private func parse(_ text: String) throws(BackendMappingError) -> BackendJSON {
        try BackendJSON.parse(Array(text.utf8))
    }

    private func refusal(_ text: String) -> BackendMappingError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func numbersKeepTheirLiteralText() throws {
        let json = try parse(#"[4805.10, 0.1, 635545521745890001, -0, 1E+2, 2.50e-3, 123456789012345678901234567890.000]"#)
        #expect(json == .array([
            .number(text: "4805.10"), .number(text: "0.1"), .number(text: "635545521745890001"), .number(text: "-0"),
            .number(text: "1E+2"), .number(text: "2.50e-3"), .number(text: "123456789012345678901234567890.000"),
        ]))
    }

    @Test func objectsKeepMemberOrder() throws {
        let json = try parse(#"{"z":1,"a":{"y":true,"b":null},"m":"x"}"#)
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(json["a"] == .object([BackendJSONMember(key: "y", value: .bool(true)), BackendJSONMember(key: "b", value: .null)]))
        #expect(json["missing"] == nil)
        #expect(try parse("[1,2]")[1] == .number(text: "2"))
        #expect(try parse("[1,2]")[2] == nil)
    }

    @Test func escapesAreDecoded() throws {
        let json = try parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "\/Date(1700000000000)\/", "Münster"]"#)
        #expect(json == .array([
            .string("\"\\/\u{08}\u{0C}\n\r\t"), .string("é€"), .string("😀"), .string("/Date(1700000000000)/"), .string("Münster"),
        ]))
    }

    @Test func whitespaceAndAByteOrderMarkAreSkipped() throws {
        #expect(try parse(" \t\r\n{ \"a\" : [ ] }\n") == .object([BackendJSONMember(key: "a", value: .array([]))]))
        #expect(try BackendJSON.parse([0xEF, 0xBB, 0xBF] + Array("true".utf8)) == .bool(true))
    }

    @Test(arguments: [
        "", " ", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "[-]", "[+1]", "[NaN]", "[Infinity]",
        "{a:1}", "{'a':1}", "[\"a\" \"b\"]", "[true false]", "tru", "nul", "[1] x", "[1]]", "{} {}", "// c\n1",
        "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"tab\there\"", "\"line\nbreak\"", "\"open", "[\"\\ud83d\"]",
        "[\"\\ude00\"]", "[\"\\ud83d\\u0041\"]", "{\"a\":1,\"a\":2}", "[1 2]", "{\"a\" 1}", "{\"a\":}",
    ])
    func malformedTextIsRefused(text: String) {
        guard case .invalidJSON? = refusal(text) else {
            Issue.record("accepted or refused otherwise: \(text)")
            return
        }
    }

    @Test func invalidUTF8IsRefused() {
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x28, 0x22],  // bad continuation
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
            [0x22, 0xFF, 0x22],
            [0x22, 0x5C, 0x6E, 0xE2, 0x82, 0x22],  // truncated after an escape
        ] {
            #expect(throws: BackendMappingError.self) { try BackendJSON.parse(bytes) }
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(refusal(tooDeep) == .nestingTooDeep(offset: 64, limit: 64))
        let objects = String(repeating: "{\"a\":", count: 3) + "1" + String(repeating: "}", count: 3)
        #expect(throws: BackendMappingError.nestingTooDeep(offset: 10, limit: 2)) {
            try BackendJSON.parse(Array(objects.utf8), maximumDepth: 2)
        }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(refusal(hostile) == .nestingTooDeep(offset: 64, limit: 64))
    }

    @Test func refusalsSayWhere() {
        #expect(refusal("[1,]") == .invalidJSON(offset: 3, reason: "unexpected character"))
        #expect(refusal("[1] x") == .invalidJSON(offset: 4, reason: "characters after the JSON value"))
        #expect(refusal("") == .invalidJSON(offset: 0, reason: "no JSON value"))
        #expect(refusal("{\"a\":1,\"a\":2}") == .invalidJSON(offset: 13, reason: "duplicate member name \"a\""))
    }

    @Test func largeObjectsFindDuplicateNames() {
        let members = (0..<40).map { "\"k\($0)\":\($0)" } + ["\"k7\":0"]
        #expect(refusal("{" + members.joined(separator: ",") + "}") != nil)
    }

    /// A 1 MB page of OData-shaped items parses well within a second, even in a debug build.
    @Test func aOneMegabytePageParsesQuickly() throws {
        var text = #"{"@odata.context":"$metadata#SalesOrderList","value":["#
        var count = 0
        while text.utf8.count < 1_000_000 {
            if count > 0 { text += "," }
            text += #"{"@odata.etag":"W/\"20160411220000.0000000\"","SalesOrderID":"05\#(count)","#
            text += #""GrossAmount":25867.03,"Note":"Deliver as fast as possible \u00e9","Lat":49.293673600000,"#
            text += #""ChangedAt":"2016-04-12T11:18:32.465243Z","Open":true,"Tags":["a","b",null]}"#
            count += 1
        }
        text += "]}"
        let bytes = Array(text.utf8)
        let clock = ContinuousClock()
        var parsed: BackendJSON = .null
        let elapsed = try clock.measure { parsed = try BackendJSON.parse(bytes) }
        guard case .array(let items)? = parsed["value"] else {
            Issue.record("no items")
            return
        }
        #expect(items.count == count)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }
}
