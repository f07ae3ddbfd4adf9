import Foundation
import Testing

@testable import TandemSharedContainer

/// A lease file is written by whoever has access to the App Group, or left by a process killed
/// while the clock was set back: one that claims more than a lease can last counts as broken.
@Suite("Implausible leases")
struct ImplausibleLeaseTests {
    let home = TemporaryContainer()
    let now = Date()

    /// Puts a lease file claiming `acquiredAt` and `expiresAt`, as a hostile process would.
    func plant(acquiredAt: Date, expiresAt: Date) throws {
        let lease = Lease(name: "token-refresh", owner: "planted", acquiredAt: acquiredAt, expiresAt: expiresAt)
        try home.open().write(lease, kind: "lease", to: SharedContainer.leasePath("token-refresh"))
    }

    static let year2099 = Date(timeIntervalSince1970: 4_102_444_800)

    @Test func aLeaseExpiringIn2099IsBrokenByTheNextTaker() throws {
        try plant(acquiredAt: now, expiresAt: Self.year2099)
        guard case .acquired(_, let broken) = try home.open().leases.attempt("token-refresh", duration: 10, now: now) else {
            Issue.record("the planted lease blocked the taker")
            return
        }
        #expect(broken?.owner == "planted")
    }

    @Test func aLeaseAcquiredInTheFutureIsBrokenByTheNextTaker() throws {
        try plant(acquiredAt: now.addingTimeInterval(3600), expiresAt: now.addingTimeInterval(10))
        #expect(try home.open().leases.acquire("token-refresh", duration: 10, now: now) != nil)
    }

    @Test func aLeaseWithinItsDurationAndTheClockSkewStillHolds() throws {
        try plant(acquiredAt: now.addingTimeInterval(Lease.clockSkew - 1), expiresAt: now.addingTimeInterval(10 + Lease.clockSkew - 1))
        #expect(try home.open().leases.acquire("token-refresh", duration: 10, now: now) == nil)
    }

    @Test func aWaiterDoesNotWaitForALeaseExpiringIn2099() async throws {
        try plant(acquiredAt: now, expiresAt: Self.year2099)
        // Its first look finds the lease broken, before any timeout.
        try await home.open().leases.wait(for: "token-refresh", duration: 10, timeout: .seconds(5))
    }
}
