import Foundation
import Synchronization
import TandemPlatform

/// Per-key token buckets: each key (an endpoint and a client id) earns
/// ``RateLimitPolicy/requestsPerSecond`` permits per second up to ``RateLimitPolicy/burst``.
///
/// Limits are per process: behind a load balancer with N instances a client gets up to N times
/// the rate, which is the usual trade for not putting a shared counter on every request.
///
/// Buckets refill on the limiter's clock, so a test moves a `ManualClock` through a rate window
/// instead of sending requests faster than a busy machine can.
///
/// ```swift
/// let limiter = RateLimiter(policy: RateLimitPolicy(requestsPerSecond: 1, burst: 2), clock: clock)
/// if case .limited(let seconds) = limiter.acquire("login:" + address) { /* 429, Retry-After */ }
/// ```
final class RateLimiter: Sendable {
    /// The answer for one request.
    enum Decision: Sendable, Equatable {
        /// Go ahead.
        case allowed
        /// Refuse with `429`; the client may retry after this many whole seconds.
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var permits: Double
        var updated: Date
    }

    /// The policy every key gets.
    let policy: RateLimitPolicy
    /// The clock buckets refill on.
    let clock: any WallClock
    private let maximumKeys: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - policy: The rate and burst per key.
    ///   - maximumKeys: How many keys are tracked before idle (full) buckets are dropped; past it,
    ///     newcomers share one bucket.
    ///   - clock: The clock buckets refill on (default the system's).
    init(policy: RateLimitPolicy, maximumKeys: Int = 10_000, clock: any WallClock = SystemClock()) {
        self.policy = policy
        self.maximumKeys = maximumKeys
        self.clock = clock
    }

    /// Takes one permit for `key`, if there is one, as of the clock's current time.
    ///
    /// When ``maximumKeys`` keys are tracked and none of them is idle, a new key shares one
    /// bucket with every other newcomer: whoever floods the limiter with fresh keys limits only
    /// newcomers, and the keys already limited stay limited.
    func acquire(_ key: String) -> Decision {
        let policy = policy
        let now = clock.now
        return buckets.withLock { buckets in
            var key = key
            if buckets[key] == nil, buckets.count >= maximumKeys {
                Self.dropIdle(&buckets, now: now, policy: policy)
                if buckets.count >= maximumKeys { key = Self.overflowKey }
            }
            var bucket = buckets[key] ?? Bucket(permits: policy.burst, updated: now)
            let seconds = now.timeIntervalSince(bucket.updated)
            bucket.permits = min(policy.burst, bucket.permits + max(seconds, 0) * policy.requestsPerSecond)
            bucket.updated = now
            guard bucket.permits >= 1 else {
                buckets[key] = bucket
                let wait = (1 - bucket.permits) / policy.requestsPerSecond
                return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
            }
            bucket.permits -= 1
            buckets[key] = bucket
            return .allowed
        }
    }

    /// What ``acquire(_:)`` would answer for `key` now, without taking a permit: for limits
    /// charged only for failures (check first, ``acquire(_:)`` when the request failed).
    func check(_ key: String) -> Decision {
        let policy = policy
        let now = clock.now
        return buckets.withLock { buckets in
            guard let bucket = buckets[key] ?? (buckets.count >= maximumKeys ? buckets[Self.overflowKey] : nil) else { return .allowed }
            let permits = min(policy.burst, bucket.permits + max(now.timeIntervalSince(bucket.updated), 0) * policy.requestsPerSecond)
            guard permits < 1 else { return .allowed }
            return .limited(retryAfterSeconds: max(1, Int(((1 - permits) / policy.requestsPerSecond).rounded(.up))))
        }
    }

    /// The bucket newcomers share while the table is full of busy keys (no client key is empty).
    static let overflowKey = ""

    /// Removes buckets that have refilled completely: their clients are idle.
    private static func dropIdle(_ buckets: inout [String: Bucket], now: Date, policy: RateLimitPolicy) {
        let refill = policy.burst / policy.requestsPerSecond
        buckets = buckets.filter { now.timeIntervalSince($0.value.updated) < refill }
    }
}
