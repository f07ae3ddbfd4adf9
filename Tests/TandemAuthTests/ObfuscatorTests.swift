import Testing
@testable import TandemAuth

@Suite struct ObfuscatorTests {
    let key = Array("tdk_live_aaaaaaaaaaaaaaaaaaaa_0123456789".utf8)

    @Test func obfuscationRoundTrips() {
        let (mask, obfuscated) = Obfuscator.generate(for: key)
        #expect(Obfuscator(mask: mask).deobfuscate(obfuscated) == key)
        #expect(APIKeyAuthentication(obfuscatedKey: obfuscated, mask: mask).apiKey() == String(decoding: key, as: UTF8.self))
    }

    @Test func noPlainKeyByteSurvivesAtItsPosition() {
        for _ in 0..<50 {
            let (_, obfuscated) = Obfuscator.generate(for: key)
            #expect(zip(obfuscated, key).allSatisfy { $0 != $1 })
            #expect(!contains(obfuscated, Array("tdk_".utf8)))
        }
    }

    @Test func masksDifferPerBuildAndHaveNoZeroByte() {
        let first = Obfuscator.randomMask(length: 64)
        let second = Obfuscator.randomMask(length: 64)
        #expect(first != second)
        #expect(!first.contains(0))
    }

    @Test func generatedSourceHoldsNoPlainKey() {
        let source = Obfuscator.source(for: "tdk_live_42", name: "apiKey")
        #expect(source.hasPrefix("let apiKeyMask: [UInt8] = [0x"))
        #expect(source.contains("let apiKeyObfuscated: [UInt8] = [0x"))
        #expect(!source.contains("tdk_live_42"))
        let plainBytes = Array("tdk_live_42".utf8).map { "0x" + String($0, radix: 16) }.joined(separator: ", ")
        #expect(!source.contains(plainBytes))
    }

    @Test func descriptionNeverShowsTheKey() {
        let authentication = APIKeyAuthentication(apiKey: "tdk_secret")
        #expect(!"\(authentication)".contains("tdk_secret"))
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
