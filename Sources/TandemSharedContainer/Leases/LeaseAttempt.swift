/// What ``SharedLeases/attempt(_:duration:now:)`` found: the lease taken, or the live
/// lease of another process to wait for.
public enum LeaseAttempt: Sendable, Equatable {
    /// The caller holds the lease now. `brokeExpired` is the lease it replaced, if any: expired
    /// (its holder died or stalled past the expiry), implausible (see
    /// ``Lease/isPlausible(at:maximumDuration:)``) or unreadable.
    case acquired(Lease, brokeExpired: Lease?)
    /// Another process holds a live lease; wait for it with
    /// ``SharedLeases/wait(forReleaseOf:duration:timeout:clock:)``.
    case held(by: Lease)
}
