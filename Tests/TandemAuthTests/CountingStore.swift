import Foundation
import TandemAuth
import TandemPlatform

/// A ``MemoryTokenStore`` that counts its loads, to see when a coordinator reads it.
final class CountingStore: TokenStore {
    private let inner: MemoryTokenStore
    private let count = Locked(0)

    init(_ tokens: TokenSet) {
        inner = MemoryTokenStore(tokens)
    }

    /// How many times ``load()`` ran.
    var loads: Int { count.withLock { $0 } }

    func load() -> TokenSet? {
        count.withLock { $0 += 1 }
        return inner.load()
    }

    func save(_ tokens: TokenSet) { inner.save(tokens) }
    func clear() { inner.clear() }
}
