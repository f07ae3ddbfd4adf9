#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A short cross-process lease, stored as a file.
///
/// It is created atomically (a complete file linked into place; `link` fails if one exists)
/// and expires on its own; an expired lease is broken by the next process that wants it. A
/// process killed while holding one blocks the others only until its expiry.
/// Removing a lease file (a release or a break) happens under an `flock` held for one read and
/// one `unlink`, so that a break never removes a fresh lease another process has just taken.
///
/// Whoever can write the lease directory can write any times into a lease file, and a process
/// killed while the clock was set back leaves times in the future: a lease counts only while it
/// is ``isPlausible(at:maximumDuration:)``, so no file blocks the others for longer than the
/// lease's duration plus ``clockSkew``.
public struct Lease: Codable, Sendable, Equatable {
    /// What the lease is for, such as `token-refresh`.
    public let name: String
    /// Who holds it: a random id per acquisition.
    public let owner: String
    /// When it was taken.
    public let acquiredAt: Date
    /// When it stops counting; after this anyone may break it.
    public let expiresAt: Date

    /// How far the clocks of the processes sharing a lease may disagree, in seconds: 5.
    public static let clockSkew: TimeInterval = 5

    /// Whether the lease still counts at `date`: not expired, and plausible for a lease taken
    /// for at most `maximumDuration` seconds.
    ///
    /// ```swift
    /// if let lease = try leases.current("token-refresh"), lease.isLive(at: Date(), maximumDuration: 10) { … }
    /// ```
    public func isLive(at date: Date, maximumDuration: TimeInterval) -> Bool {
        expiresAt > date && isPlausible(at: date, maximumDuration: maximumDuration)
    }

    /// Whether the lease's times can be those of a lease taken for at most `maximumDuration`
    /// seconds, judged at `date` with ``clockSkew``: it was not taken in the future, and it
    /// does not expire further ahead than `maximumDuration`. An implausible lease counts as
    /// broken, whatever its expiry.
    public func isPlausible(at date: Date, maximumDuration: TimeInterval) -> Bool {
        acquiredAt <= date.addingTimeInterval(Self.clockSkew)
            && expiresAt <= date.addingTimeInterval(max(0, maximumDuration) + Self.clockSkew)
    }
}
