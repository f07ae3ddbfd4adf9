/// What ``SharedLeases/attempt(_:duration:now:)`` found: the lease taken, or the live
/// lease of another process to wait for.
public enum LeaseAttempt: Sendable, Equatable {
    /// The caller holds the lease now. `brokeExpired` is the expired lease it replaced, if any
    /// (its holder died or stalled past the expiry).
    case acquired(Lease, brokeExpired: Lease?)
    /// Another process holds a live lease; wait for it with
    /// ``SharedLeases/wait(forReleaseOf:timeout:)``.
    case held(by: Lease)
}
