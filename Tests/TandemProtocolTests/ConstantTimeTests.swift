import Foundation
import TandemProtocol
import Testing

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test func equalBytesAreEqual() {
        #expect(ConstantTime.equals(Data([1, 2, 3]), [1, 2, 3] as [UInt8]))
        #expect(ConstantTime.equals("state-1", "state-1"))
        #expect(ConstantTime.equals("", ""))
    }

    @Test func aDifferenceAnywhereOrAnotherLengthIsUnequal() {
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [0, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!ConstantTime.equals("state-1", "state-2"))
        #expect(!ConstantTime.equals("state", "state-1"))
    }

    @Test("long strings (stored out of line) compare over every byte, the last as the first")
    func longStrings() {
        let token = String(repeating: "a1b2", count: 64)
        #expect(ConstantTime.equals(token, String(repeating: "a1b2", count: 64)))
        #expect(!ConstantTime.equals(token, String(token.dropLast()) + "3"))
        #expect(!ConstantTime.equals(token, "b" + String(token.dropFirst())))
        #expect(!ConstantTime.equals(token, String(token.dropLast())))
    }

    @Test func stringsCompareByTheirUTF8Bytes() {
        #expect(ConstantTime.equals("é", "\u{65}\u{301}") == false)
        #expect(ConstantTime.equals("été", "été"))
    }
}
