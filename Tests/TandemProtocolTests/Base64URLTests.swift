import Foundation
import TandemProtocol
import Testing

@Suite("Base64url")
struct Base64URLTests {
    @Test("base64url matches Foundation's base64 with the URL alphabet and no padding")
    func base64URLMatchesFoundation() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected, "length \(length)")
        }
    }

    @Test func everyEncodingDecodesToItsBytes() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes), "length \(length)")
        }
    }

    @Test func theURLAlphabetDecodes() {
        #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
        #expect(Base64URL.decode("") == Data())
    }

    @Test func plusAndSlashOfStandardBase64AreRefused() {
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("-/8") == nil)
        #expect(Base64URL.decode("+_8") == nil)
    }

    @Test func paddingIsOptionalButOnlyAtTheEnd() {
        #expect(Base64URL.decode("-_8=") == Data([0xfb, 0xff]))
        #expect(Base64URL.decode("AA==") == Data([0]))
        #expect(Base64URL.decode("AA") == Data([0]))
        #expect(Base64URL.decode("A=A=") == nil)
        #expect(Base64URL.decode("AA=") == nil)
        #expect(Base64URL.decode("AA===") == nil)
        #expect(Base64URL.decode("====") == nil)
    }

    @Test func impossibleLengthsWhitespaceAndOtherCharactersAreRefused() {
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AAAAA") == nil)
        #expect(Base64URL.decode("AA AA") == nil)
        #expect(Base64URL.decode("AAAA\n") == nil)
        #expect(Base64URL.decode("AA.A") == nil)
        #expect(Base64URL.decode("ÀAAA") == nil)
    }

    @Test func nonZeroTrailingBitsAreRefusedSoEachValueHasOneSpelling() {
        #expect(Base64URL.decode("AA") == Data([0]))
        #expect(Base64URL.decode("AB") == nil)
        #expect(Base64URL.decode("AAA") == Data([0, 0]))
        #expect(Base64URL.decode("AAB") == nil)
    }
}
