import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

@testable import TandemSharedContainer

/// The leases' expiries, the waits' timeouts and the expiry check delay all run on a clock the
/// test moves; a release wakes the waiter through the file system.
@Suite("Waiting for a lease", .timeLimit(.minutes(1)))
struct LeaseWaitingTests {
    let home = TemporaryContainer()
    let clock = ManualClock()

    @Test func withNoLeaseOnFileTheWaitReturnsAtOnce() async throws {
        try await home.open().leases.wait(for: "token-refresh", duration: 60, timeout: .zero, clock: clock)
    }

    @Test func theWaiterReturnsOnlyAfterTheHolderReleases() async throws {
        let clock = clock
        try await expectWaitEndsOnlyAfterTheRelease { waiter in
            try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .seconds(60), clock: clock)
        }
    }

    @Test func theWaiterReturnsWhenADeadHoldersLeaseExpires() async throws {
        let holder = try home.open()
        let waiter = try home.open()
        // The holder takes a short lease and dies without releasing it.
        let lease = try #require(try holder.leases.acquire("token-refresh", duration: 0.05, now: clock.now))
        let clock = clock
        let waiting = Task { try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .seconds(60), clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(60))
        try await waiting.value
        #expect(try waiter.leases.current("token-refresh") == lease)
        #expect(lease.isLive(at: clock.now, maximumDuration: 60) == false)
    }

    @Test func anExpiredLeaseIsTakenForLiveUntilTheExpiryCheckDelay() async throws {
        let holder = try home.open()
        let waiter = try home.open()
        _ = try #require(try holder.leases.acquire("token-refresh", duration: 1, now: clock.now.addingTimeInterval(-60)))
        #expect(try waiter.leases.isOnFile("token-refresh"))
        // Without a delay the expired lease is seen at once; with one, only once it has passed.
        try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .zero, clock: clock)
        let clock = clock
        let returned = Locked(false)
        let waiting = Task {
            try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .seconds(60), expiryCheckDelay: .milliseconds(60), clock: clock)
            returned.withLock { $0 = true }
        }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(59))
        #expect(returned.withLock { $0 } == false, "59 ms into the delay the lease still counts as live")
        clock.advance(by: .milliseconds(1))
        try await waiting.value
        #expect(returned.withLock { $0 })
    }

    @Test func isLeaseOnFileFollowsTheFile() throws {
        let container = try home.open()
        #expect(try container.leases.isOnFile("token-refresh") == false)
        let lease = try #require(try container.leases.acquire("token-refresh", duration: 60))
        #expect(try container.leases.isOnFile("token-refresh"))
        try container.leases.release(lease)
        #expect(try container.leases.isOnFile("token-refresh") == false)
        #expect(throws: SharedContainerError.invalidName("../x")) { try container.leases.isOnFile("../x") }
    }

    @Test func aLeaseHeldPastTheTimeoutThrowsTimedOut() async throws {
        let holder = try home.open()
        _ = try #require(try holder.leases.acquire("token-refresh", duration: 60, now: clock.now))
        let waiter = try home.open()
        let clock = clock
        let waiting = Task { try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .milliseconds(20), clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(20))
        await #expect(throws: SharedContainerError.timedOut(lease: "token-refresh")) { try await waiting.value }
    }

    @Test func cancellingTheWaiterThrowsCancelled() async throws {
        let holder = try home.open()
        let waiter = try home.open()
        _ = try #require(try holder.leases.acquire("token-refresh", duration: 60, now: clock.now))
        let clock = clock
        let waiting = Task { try await waiter.leases.wait(for: "token-refresh", duration: 60, timeout: .seconds(60), clock: clock) }
        waiting.cancel()
        await #expect(throws: SharedContainerError.cancelled) { try await waiting.value }
    }

    @Test func aDamagedLeaseFileDoesNotKeepTheWaiterWaiting() async throws {
        let container = try home.open()
        try Data("garbage".utf8).write(to: container.url(SharedContainer.leasePath("token-refresh")))
        try await container.leases.wait(for: "token-refresh", duration: 60, timeout: .seconds(60), clock: clock)
    }

    @Test func waitingForAKnownHolderReturnsOnlyAfterItReleases() async throws {
        let clock = clock
        try await expectWaitEndsOnlyAfterTheRelease { waiter in
            guard case .held(let seen) = try waiter.leases.attempt("token-refresh", duration: 60, now: clock.now) else {
                Issue.record("a held lease was acquired twice")
                return
            }
            try await waiter.leases.wait(forReleaseOf: seen, duration: 60, timeout: .seconds(60), clock: clock)
        }
    }

    @Test func waitingForADeadHolderEndsAtItsExpiry() async throws {
        let holder = try home.open()
        let waiter = try home.open()
        let lease = try #require(try holder.leases.acquire("token-refresh", duration: 0.05, now: clock.now))
        let clock = clock
        let waiting = Task { try await waiter.leases.wait(forReleaseOf: lease, duration: 60, timeout: .seconds(60), clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(60))
        try await waiting.value
        #expect(lease.isLive(at: clock.now, maximumDuration: 60) == false)
        #expect(try waiter.leases.current("token-refresh") == lease, "nobody released it: the wait ended on the expiry")
    }

    @Test func cancellingAWaitForAKnownHolderThrowsCancelled() async throws {
        let holder = try home.open()
        let lease = try #require(try holder.leases.acquire("token-refresh", duration: 60, now: clock.now))
        let waiter = try home.open()
        let clock = clock
        let waiting = Task { try await waiter.leases.wait(forReleaseOf: lease, duration: 60, timeout: .seconds(60), clock: clock) }
        try await clock.waitForSleepers()  // the waiter is waiting
        waiting.cancel()
        await #expect(throws: SharedContainerError.cancelled) { try await waiting.value }
    }

    #if os(Linux)
    @Test func onLinuxWaitersAreWokenByTheFileSystemNotByPolling() {
        #expect(DirectoryWatch.shared != nil)
    }
    #endif

    @Test func anInvalidNameIsRefused() async throws {
        await #expect(throws: SharedContainerError.invalidName("../x")) {
            try await home.open().leases.wait(for: "../x", duration: 60, timeout: .seconds(1), clock: clock)
        }
    }

    /// Takes the lease in one instance, starts `wait` in another, releases once the waiter is
    /// waiting (the clock never moves), and expects the wait to have ended only after the release.
    private func expectWaitEndsOnlyAfterTheRelease(
        _ wait: @escaping @Sendable (SharedContainer) async throws -> Void
    ) async throws {
        let holder = try home.open()
        let waiter = try home.open()
        let lease = try #require(try holder.leases.acquire("token-refresh", duration: 60, now: clock.now))
        let released = Locked(false)
        let waiting = Task {
            try await wait(waiter)
            return released.withLock { $0 }
        }
        try await clock.waitForSleepers()
        released.withLock { $0 = true }
        try holder.leases.release(lease)
        #expect(try await waiting.value, "the wait ended while the lease was still held")
    }
}
