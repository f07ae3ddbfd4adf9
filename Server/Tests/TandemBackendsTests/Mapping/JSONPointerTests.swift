import Foundation
import Testing

@testable import TandemBackends

/// RFC 6901 JSON pointers, with the examples of the RFC's section 5.
@Suite("JSON pointer")
struct JSONPointerTests {
    /// The document of RFC 6901 section 5.
    private let document = """
        {
           "foo": ["bar", "baz"],
           "": 0,
           "a/b": 1,
           "c%d": 2,
           "e^f": 3,
           "g|h": 4,
           "i\\\\j": 5,
           "k\\"l": 6,
           " ": 7,
           "m~n": 8
        }
        """

    @Test func theExamplesOfRFC6901Section5Resolve() throws {
        let json = try BackendJSON.parse(Array(document.utf8))
        let expected: [(String, BackendJSON)] = [
            ("/foo", .array([.string("bar"), .string("baz")])),
            ("/foo/0", .string("bar")),
            ("/", .number(text: "0")),
            ("/a~1b", .number(text: "1")),
            ("/c%d", .number(text: "2")),
            ("/e^f", .number(text: "3")),
            ("/g|h", .number(text: "4")),
            ("/i\\j", .number(text: "5")),
            ("/k\"l", .number(text: "6")),
            ("/ ", .number(text: "7")),
            ("/m~0n", .number(text: "8")),
        ]
        #expect(try JSONPointer("").resolve(in: json) == json)
        for (text, value) in expected {
            #expect(try JSONPointer(text).resolve(in: json) == value, "\(text)")
        }
    }

    @Test func tokensAreUnescapedOnceLeftToRight() throws {
        #expect(try JSONPointer("/a~1b/~01/c").tokens == ["a/b", "~1", "c"])
        #expect(try JSONPointer("/a~1b/~01/c").description == "/a~1b/~01/c")
        #expect(try JSONPointer("//x/").tokens == ["", "x", ""])
        #expect(JSONPointer.document.description == "")
        #expect(try JSONPointer("/d").appending("results").description == "/d/results")
    }

    @Test(arguments: ["a", "a/b", "/~", "/~2", "/a~", "#/a"])
    func malformedPointersAreRefused(text: String) {
        #expect(throws: BackendMappingError.self) { try JSONPointer(text) }
    }

    @Test func arrayIndicesAreStrict() throws {
        let json = try BackendJSON.parse(Array(#"{"a":[10,20,30]}"#.utf8))
        #expect(try JSONPointer("/a/2").resolve(in: json) == .number(text: "30"))
        for missing in ["/a/3", "/a/-", "/a/01", "/a/x", "/a/-1", "/a/99999999999999999999", "/a/0/b", "/b"] {
            #expect(try JSONPointer(missing).resolve(in: json) == nil, "\(missing)")
        }
    }

    @Test func pointersEncodeAsTheirText() throws {
        let pointer = try JSONPointer("/a~1b/0")
        let data = try JSONEncoder().encode([pointer])
        #expect(String(decoding: data, as: UTF8.self) == #"["\/a~1b\/0"]"# || String(decoding: data, as: UTF8.self) == #"["/a~1b/0"]"#)
        #expect(try JSONDecoder().decode([JSONPointer].self, from: data) == [pointer])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([JSONPointer].self, from: Data(#"["a"]"#.utf8)) }
    }
}
