import TandemAuth
import TandemPlatform

/// A store in which a "peer process" saves its refresh result right after the n-th load,
/// to hit the window between a caller's last look and its taking the lease.
final class PeerSavingStore: TokenStore {
    private let inner: MemoryTokenStore
    private let loads = Locked(0)
    private let trigger: Int
    private let peerResult: TokenSet

    init(_ tokens: TokenSet, peerSavesAfterLoad trigger: Int, peerResult: TokenSet) {
        inner = MemoryTokenStore(tokens)
        self.trigger = trigger
        self.peerResult = peerResult
    }

    func load() -> TokenSet? {
        let loaded = inner.load()
        if loads.withLock({ $0 += 1; return $0 }) == trigger { inner.save(peerResult) }
        return loaded
    }

    func save(_ tokens: TokenSet) { inner.save(tokens) }
    func clear() { inner.clear() }
}
