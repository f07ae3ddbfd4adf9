import Foundation
import TandemPlatform
import Testing

/// Hex is what file names, request keys and ETags are spelled with: every byte value, two
/// lower-case digits, in order.
struct HexTests {
    @Test func everyByteIsTwoLowerCaseDigitsInOrder() {
        let bytes = (0...255).map(UInt8.init)
        let expected = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(Hex.encode(bytes) == expected)
        #expect(Hex.encode(Data([0xde, 0xad, 0xbe, 0xef])) == "deadbeef")
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test func decodingReadsEitherCaseAndRefusesWhatIsNotHex() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        #expect(Hex.decode("DEADbeef") == [0xde, 0xad, 0xbe, 0xef])
        #expect(Hex.decode("") == [])
        for bad in ["abc", "zz", "0x12", "12 34", "é1"] {
            #expect(Hex.decode(bad) == nil, "\(bad)")
        }
    }
}
