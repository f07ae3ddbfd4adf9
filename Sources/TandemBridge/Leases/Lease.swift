import Foundation

/// A short, expiring claim on a piece of work shared by several processes — "I am refreshing
/// the token" — held as a file in the container's `leases/` folder.
///
/// A lease is taken by creating its file with its content in one atomic step (hard-linking a
/// finished temporary file into place, which fails if the file exists). It is never held across
/// a suspension: it simply expires, and an expired lease is broken by the next process that
/// wants it. A process killed while holding one blocks the others only until its expiry.
/// Removing a lease file (a release or a break) happens under an `flock` held for one read and
/// one `unlink`, so that a break never removes a fresh lease another process has just taken.
public struct Lease: Codable, Sendable, Equatable {
    /// What the lease is for, such as `token-refresh`.
    public let name: String
    /// Who holds it: a random id per acquisition.
    public let owner: String
    /// When it was taken.
    public let acquiredAt: Date
    /// When it stops counting; after this anyone may break it.
    public let expiresAt: Date

    /// Whether the lease still counts at `date`.
    public func isLive(at date: Date) -> Bool { expiresAt > date }
}
