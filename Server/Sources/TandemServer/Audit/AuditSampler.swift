import Foundation
import Synchronization
import TandemPlatform

/// Keeps anonymous refusals (unknown passcodes, rate-limited requests) from flooding the audit
/// log and pushing real evidence out of the cockpit: per key (a kind and a source address) at
/// most one row per ``interval``; the refusals in between are counted, and the next row says
/// how many there were.
///
/// Memory is bounded: past ``maximumKeys`` keys, those whose interval has passed are dropped,
/// and while none has, every newcomer is recorded (a flood of fresh addresses is visible, and
/// limited by the rate limiter in front).
final class AuditSampler: Sendable {
    /// The shortest time between two rows for one key.
    let interval: Duration
    /// The clock intervals run on.
    let clock: any WallClock
    private let maximumKeys: Int
    private let entries = Mutex<[String: Entry]>([:])

    private struct Entry {
        var recordedAt: Date
        var suppressed: Int
    }

    /// Creates a sampler.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two rows for one key (default one minute).
    ///   - maximumKeys: How many keys are tracked at most.
    ///   - clock: The clock intervals run on.
    init(interval: Duration = .seconds(60), maximumKeys: Int = 10_000, clock: any WallClock = SystemClock()) {
        self.interval = interval
        self.maximumKeys = maximumKeys
        self.clock = clock
    }

    /// Whether an event for `key` is recorded now: `nil` when it is only counted, otherwise
    /// how many were counted (not recorded) for `key` since its last row.
    func admit(_ key: String) -> Int? {
        let now = clock.now
        let interval = interval.timeInterval
        let maximumKeys = maximumKeys
        return entries.withLock { entries in
            if var entry = entries[key], now.timeIntervalSince(entry.recordedAt) < interval {
                entry.suppressed += 1
                entries[key] = entry
                return nil
            }
            let suppressed = entries[key]?.suppressed ?? 0
            if entries[key] == nil, entries.count >= maximumKeys {
                entries = entries.filter { now.timeIntervalSince($0.value.recordedAt) < interval }
                if entries.count >= maximumKeys { return 0 }
            }
            entries[key] = Entry(recordedAt: now, suppressed: 0)
            return suppressed
        }
    }
}
