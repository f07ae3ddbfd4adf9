import Synchronization

/// A bounded in-memory map from a credential's hash to what checking it found, each entry valid
/// until its own deadline (a token's `exp`, or a short time for an API-key lookup).
///
/// Only successful checks are stored, keyed by a hash, never the secret itself. When full, expired
/// entries go first, then the tenth that expires soonest.
final class CredentialCache<Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let validUntil: Timestamp
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` entries.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The value stored under `key` if its deadline is after `now`.
    func value(for key: String, now: Timestamp) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.validUntil > now else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Stores `value` under `key` until `validUntil`, making room if the cache is full.
    func store(_ value: Value, for key: String, validUntil: Timestamp, now: Timestamp) {
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

    /// How many entries are stored, expired or not.
    var count: Int {
        entries.withLock { $0.count }
    }
}
