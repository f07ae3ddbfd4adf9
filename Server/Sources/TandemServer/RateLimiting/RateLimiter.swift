import Synchronization

/// Per-key token buckets: each key (an endpoint and a client id) earns
/// ``RateLimitPolicy/requestsPerSecond`` permits per second up to ``RateLimitPolicy/burst``.
///
/// Limits are per process: behind a load balancer with N instances a client gets up to N times
/// the rate, which is the usual trade for not putting a shared counter on every request.
public final class RateLimiter: Sendable {
    /// The answer for one request.
    public enum Decision: Sendable, Equatable {
        /// Go ahead.
        case allowed
        /// Refuse with `429`; the client may retry after this many whole seconds.
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var permits: Double
        var updated: ContinuousClock.Instant
    }

    /// The policy every key gets.
    public let policy: RateLimitPolicy
    private let maximumKeys: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - policy: The rate and burst per key.
    ///   - maximumKeys: How many keys are tracked before idle (full) buckets are dropped.
    public init(policy: RateLimitPolicy, maximumKeys: Int = 10_000) {
        self.policy = policy
        self.maximumKeys = maximumKeys
    }

    /// Takes one permit for `key`, if there is one.
    public func acquire(_ key: String, now: ContinuousClock.Instant = .now) -> Decision {
        let policy = policy
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(permits: policy.burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.permits = min(policy.burst, bucket.permits + max(seconds, 0) * policy.requestsPerSecond)
            bucket.updated = now
            guard bucket.permits >= 1 else {
                buckets[key] = bucket
                let wait = (1 - bucket.permits) / policy.requestsPerSecond
                return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
            }
            bucket.permits -= 1
            if buckets[key] == nil, buckets.count >= maximumKeys {
                Self.dropIdle(&buckets, now: now, policy: policy)
            }
            buckets[key] = bucket
            return .allowed
        }
    }

    /// Removes buckets that have refilled completely (their clients are idle); if none has,
    /// starts over rather than growing without bound.
    private static func dropIdle(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant, policy: RateLimitPolicy) {
        let refill = Duration.seconds(policy.burst / policy.requestsPerSecond)
        let before = buckets.count
        buckets = buckets.filter { now - $0.value.updated < refill }
        if buckets.count == before { buckets.removeAll(keepingCapacity: true) }
    }
}
