#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A snapshot as a widget reads it: the data, and whether it is still fresh.
///
/// ```swift
/// if let reading = try container.snapshots.read(kind: "entities", key: entityKey, using: share) {
///     switch reading.freshness {
///     case .fresh: render(reading.snapshot.payload)
///     case .stale(let age): render(reading.snapshot.payload, note: "updated \(Int(age / 60)) min ago")
///     }
/// }
/// ```
public struct SnapshotReading: Sendable, Equatable {
    /// Whether a snapshot may be shown as current.
    public enum Freshness: Sendable, Equatable {
        /// Before its expiry.
        case fresh
        /// Past its expiry; `age` is the time since it was fetched, in seconds.
        case stale(age: TimeInterval)
    }

    /// The snapshot.
    public let snapshot: Snapshot
    /// Fresh or stale, at the time of reading.
    public let freshness: Freshness
    /// Seconds since the snapshot was fetched (zero if the clocks disagree).
    public let age: TimeInterval

    /// Judges `snapshot` at `now`.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot read.
    ///   - now: The time of reading.
    public init(snapshot: Snapshot, now: Date) {
        self.snapshot = snapshot
        age = max(0, now.timeIntervalSince(snapshot.fetchedAt))
        freshness = now < snapshot.expiresAt ? .fresh : .stale(age: age)
    }
}
