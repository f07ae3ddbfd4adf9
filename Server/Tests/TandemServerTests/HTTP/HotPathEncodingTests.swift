import Foundation
import TandemProtocol
@testable import TandemServer
import Testing

/// The hand-written encoders on the token endpoint's hot path agree with Foundation's.
@Suite("Hot-path encoding")
struct HotPathEncodingTests {
    @Test("form decoding: plus, escapes, UTF-8, and malformed escapes refused")
    func formDecoding() throws {
        let form = try FormBody(parsing: "a=x+y%2Bz&b=%C3%A9t%C3%A9&c=&d")
        #expect(form.fields["a"] == "x y+z")
        #expect(form.fields["b"] == "été")
        #expect(form["c"] == nil)
        #expect(form.fields["d"] == "")
        for malformed in ["a=%", "a=%4", "a=%zz", "a=%C3%28"] {
            #expect(throws: FormBody.ParseError.malformedEncoding) { try FormBody(parsing: malformed) }
        }
        #expect(throws: FormBody.ParseError.repeatedParameter("a")) { try FormBody(parsing: "a=1&a=2") }
    }

    @Test("the token response's JSON decodes to what JSONEncoder would have written")
    func tokenResponseJSON() throws {
        for account in [nil, "ada \"lovelace\""] {
            let response = TokenResponse(
                accessToken: "eyJ.a\"b\\c", expiresIn: 300, refreshToken: "tdr_x\ny\u{01}", scope: "data.read é", issuedTokenType: "urn:x",
                account: account)
            let handWritten = try JSONSerialization.jsonObject(with: Data(response.json.utf8)) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(response)) as? NSDictionary
            #expect(handWritten == encoded)
            #expect(handWritten?["refresh_token"] as? String == "tdr_x\ny\u{01}")
            #expect(handWritten?["account"] as? String == account)
        }
    }
}
