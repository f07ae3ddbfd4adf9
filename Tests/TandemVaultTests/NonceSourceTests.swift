import Crypto
import Foundation
import Testing
@testable import TandemVault

@Suite("Nonce source")
struct NonceSourceTests {
    @Test func noNonceRepeatsAcrossRefillsOfThePool() throws {
        let count = NonceSource.poolByteCount / DataKey.nonceByteCount * 3 + 7
        var seen = Set<Data>()
        for _ in 0..<count {
            let nonce = try NonceSource.shared.next()
            #expect(seen.insert(nonce.withUnsafeBytes { Data($0) }).inserted)
        }
        #expect(seen.count == count)
    }

    @Test func nonceBytesAreNotAllZeroOrConstant() throws {
        // The pool's storage starts zeroed: a nonce read before the first fill would be zeros.
        let nonces = try (0..<4).map { _ in try NonceSource.shared.next().withUnsafeBytes { Data($0) } }
        #expect(nonces.allSatisfy { $0.count == DataKey.nonceByteCount && $0 != Data(count: DataKey.nonceByteCount) })
        #expect(Set(nonces).count == nonces.count)
    }
}
