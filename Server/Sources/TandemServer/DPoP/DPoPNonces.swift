import Crypto
import Foundation
import Synchronization
import TandemPlatform
import TandemProtocol

/// The server's DPoP nonces (RFC 9449 §8): a nonce names a time window and carries a MAC of it
/// under a key every instance derives from the server's sealing key, so any instance sharing the
/// database issues and accepts the same nonces without storing them. A nonce is accepted in its
/// window and the next one, so a client that learnt it just before a window turned keeps it for
/// at least one whole window.
///
/// ```swift
/// let nonces = DPoPNonces(sealingKey: keys.sealingKey, window: .seconds(300), clock: clock)
/// response.headers[.dpopNonce] = nonces.current()
/// try proof.check(…, nonce: (nonces.current(), nonces.accepts))
/// ```
struct DPoPNonces: Sendable {
    private let key: SymmetricKey
    /// How long a window lasts.
    let window: Duration
    let clock: any WallClock
    /// The last window's nonce: every token-endpoint answer sends the current one, so it is made
    /// once a window, not once a request.
    private let latest = LatestNonce()

    private struct WindowNonce: Sendable {
        let window: Int64
        let nonce: String
    }

    /// Shared by the copies of the (value-type) nonces.
    private final class LatestNonce: Sendable {
        let value = Mutex<WindowNonce?>(nil)
    }

    /// Bytes of the MAC in a nonce (128 bits: guessing one is out of reach).
    private static let macByteCount = 16

    /// Nonces keyed from `sealingKey` (the server's 32-byte sealing key, through HKDF, so the
    /// nonce key is never the sealing key itself).
    init(sealingKey: Data, window: Duration = .seconds(300), clock: any WallClock) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: sealingKey), info: Data("tandem.dpop.nonce".utf8), outputByteCount: 32)
        self.window = window
        self.clock = clock
    }

    /// The nonce of the current window.
    func current() -> String {
        cachedNonce(window: windowIndex(of: clock.now))
    }

    /// Whether `nonce` is the current window's or the previous one's (compared in constant time).
    func accepts(_ nonce: String) -> Bool {
        let index = windowIndex(of: clock.now)
        let candidates = [cachedNonce(window: index), make(window: index - 1)]
        // Both are compared, whichever matches, so the time does not say which window it was.
        return candidates.reduce(false) { found, candidate in ConstantTime.equals(nonce, candidate) || found }
    }

    private func windowIndex(of date: Date) -> Int64 {
        let seconds = max(1, window.components.seconds)
        return Int64(date.timeIntervalSince1970.rounded(.down)) / seconds
    }

    /// The nonce of `window`, from ``latest`` when it is that window's.
    private func cachedNonce(window index: Int64) -> String {
        if let cached = latest.value.withLock({ $0 }), cached.window == index { return cached.nonce }
        let made = make(window: index)
        latest.value.withLock { $0 = WindowNonce(window: index, nonce: made) }
        return made
    }

    private func make(window index: Int64) -> String {
        let message = withUnsafeBytes(of: index.bigEndian) { Data($0) }
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return Base64URL.encode(message + Data(mac).prefix(Self.macByteCount))
    }
}
