import Crypto
import Foundation
import TandemPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random AES-GCM nonces (96 bits each), drawn from the system's generator a pool at a time.
///
/// Every box the vault seals has a fresh random nonce. On Linux each draw from the system's
/// generator is a `getrandom` system call, which cost a vault write about as much as its item
/// tag's HMAC; drawing 341 nonces' worth at once makes it one call per 341 writes. The bytes are
/// the system generator's own, so the nonces are as random as before; they are not secret (a box
/// stores its nonce in the clear), so keeping a pool in memory reveals nothing.
///
/// A forked child must never reuse its parent's pool (the same nonce under the same key twice
/// breaks AES-GCM): the pool counts forks (`pthread_atfork`) and starts again after one. (A
/// child forked while another thread held the pool's lock cannot take it; nothing in the SDK
/// forks without executing another program at once.)
final class NonceSource: Sendable {
    /// The process's source, used by every seal.
    static let shared = NonceSource()

    /// Bytes drawn per refill: 341 nonces, just under 4 KiB.
    static let poolByteCount = 341 * DataKey.nonceByteCount

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: NonceSource.poolByteCount)
        /// Where the next nonce starts; at the end, the pool is used up.
        var offset = NonceSource.poolByteCount
        /// ``Forks/count`` when the pool was filled.
        var forks: UInt64 = 0
    }

    private let pool = Locked(Pool())

    private init() {
        Forks.startCounting()
    }

    /// A nonce never handed out before in this process.
    func next() throws -> AES.GCM.Nonce {
        try pool.withLock { pool in
            let forks = Forks.count
            if pool.offset + DataKey.nonceByteCount > pool.bytes.count || pool.forks != forks {
                pool.bytes.withUnsafeMutableBytes { Self.fill($0) }
                pool.offset = 0
                pool.forks = forks
            }
            let start = pool.offset
            pool.offset += DataKey.nonceByteCount
            return try pool.bytes.withUnsafeBytes { bytes in
                try AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + DataKey.nonceByteCount)]))
            }
        }
    }

    /// Fills `buffer` from the system's generator (one call where the platform has one).
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Darwin) || canImport(Glibc)
        arc4random_buf(buffer.baseAddress!, buffer.count)
        #else
        var generator = SystemRandomNumberGenerator()
        for index in buffer.indices { buffer[index] = generator.next() }
        #endif
    }

    /// The number of times this process was forked into the one running, as the child.
    private enum Forks {
        /// Written only in a freshly forked child, while it has a single thread.
        nonisolated(unsafe) static var count: UInt64 = 0

        /// Registers the fork handler (once per process).
        static func startCounting() {
            _ = registration
        }

        private static let registration: Void = {
            #if canImport(Darwin) || canImport(Glibc)
            pthread_atfork(nil, nil) { Forks.count &+= 1 }
            #endif
        }()
    }
}
