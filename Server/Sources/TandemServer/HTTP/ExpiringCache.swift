import Crypto
import Foundation
import Synchronization

/// A bounded in-memory map whose entries are each valid until their own deadline: verified
/// credentials until the token's `exp` (or a short time for an API-key lookup), rendered pages
/// for a few minutes.
///
/// When full, expired entries go first, then the tenth that expires soonest, so memory stays
/// bounded whatever the traffic.
final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let validUntil: Timestamp
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` entries.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The value stored under `key` if its deadline is after `now`.
    func value(for key: Key, now: Timestamp) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.validUntil > now else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Forgets what is stored under `key`, if anything.
    func removeValue(for key: Key) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// Stores `value` under `key` until `validUntil`, making room if the cache is full.
    func store(_ value: Value, for key: Key, validUntil: Timestamp, now: Timestamp) {
        guard validUntil > now else { return }
        let capacity = capacity
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.validUntil > now }
                if entries.count >= capacity {
                    let soonest = entries.sorted { $0.value.validUntil < $1.value.validUntil }.prefix(max(capacity / 10, 1))
                    for (evicted, _) in soonest { entries[evicted] = nil }
                }
            }
            entries[key] = Entry(value: value, validUntil: validUntil)
        }
    }
}

extension ExpiringCache where Key == Data {
    /// The key of a secret: its raw SHA-256, so the secret itself is never kept. Hashed from
    /// the string's own bytes, without copying them first: a bearer token is hundreds of bytes,
    /// and this runs on every `/v1` request.
    static func key(of secret: String) -> Data {
        var secret = secret
        let digest = secret.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return digest.withUnsafeBytes { Data($0) }
    }
}
