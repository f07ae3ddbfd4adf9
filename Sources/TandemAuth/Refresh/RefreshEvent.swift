#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a ``RefreshCoordinator`` did, reported through its `onEvent` observer (the CLI prints
/// them; tests count them). Never carries a token.
public enum RefreshEvent: Sendable, Equatable {
    /// This process took the refresh lease; reported right after taking it and before any
    /// network call.
    case leaseAcquired
    /// The lease on file had expired (its holder died or hung), or claimed times no lease of
    /// this duration can have (`Lease.isPlausible(at:maximumDuration:)`), and this process broke it.
    case brokeExpiredLease
    /// Another process held the lease; this one waited this many seconds for it.
    case waitedForPeer(TimeInterval)
    /// Another process had already refreshed: its stored result was reused without a request.
    case reusedPeerResult
    /// This process redeemed the refresh token and saved the new tokens.
    case refreshed
    /// The grant is gone (`invalid_grant`): the store was cleared and the hook called.
    case reauthenticationRequired
}
