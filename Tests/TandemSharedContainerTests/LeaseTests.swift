import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Leases")
struct LeaseTests {
    @Test func aLiveLeaseIsExclusiveAndReleaseFreesIt() throws {
        let home = TemporaryContainer()
        let host = try home.open()
        let widget = try home.open()
        let now = Date()
        let lease = try #require(try host.leases.acquire("token-refresh", duration: 10, now: now))
        #expect(try widget.leases.acquire("token-refresh", duration: 10, now: now.addingTimeInterval(9)) == nil)
        #expect(try widget.leases.current("token-refresh") == lease)
        try host.leases.release(lease)
        #expect(try widget.leases.current("token-refresh") == nil)
        #expect(try widget.leases.acquire("token-refresh", duration: 10, now: now) != nil)
    }

    @Test func anExpiredLeaseIsBrokenByTheNextTaker() throws {
        let home = TemporaryContainer()
        let killed = try home.open()
        let survivor = try home.open()
        let now = Date()
        let stale = try #require(try killed.leases.acquire("token-refresh", duration: 5, now: now))
        // The holder was killed and never released: after expiry, another process takes over.
        let taken = try #require(try survivor.leases.acquire("token-refresh", duration: 5, now: now.addingTimeInterval(5)))
        #expect(taken.owner != stale.owner)
        // The late release of the broken lease leaves the new holder's lease alone.
        try killed.leases.release(stale)
        #expect(try survivor.leases.current("token-refresh") == taken)
    }

    @Test func attemptLeaseSaysWhoHoldsItAndWhichExpiredLeaseItBroke() throws {
        let home = TemporaryContainer()
        let host = try home.open()
        let widget = try home.open()
        let now = Date()
        guard case .acquired(let lease, let broken) = try host.leases.attempt("token-refresh", duration: 5, now: now) else {
            Issue.record("a free lease was not acquired")
            return
        }
        #expect(broken == nil)
        #expect(try widget.leases.attempt("token-refresh", duration: 5, now: now.addingTimeInterval(1)) == .held(by: lease))
        // The holder died: after its expiry the next taker replaces it and says which one it broke.
        guard case .acquired(let taken, let replaced) = try widget.leases.attempt("token-refresh", duration: 5, now: now.addingTimeInterval(6)) else {
            Issue.record("an expired lease was not broken")
            return
        }
        #expect(replaced == lease)
        #expect(taken.owner != lease.owner)
        #expect(try host.leases.current("token-refresh") == taken)
    }

    @Test func manyTakersOfAnExpiredLeaseLeaveExactlyOneHolder() throws {
        let home = TemporaryContainer()
        let takers = try (0..<8).map { _ in try home.open() }
        let start = Date()
        for round in 0..<100 {
            // A holder that died: its lease expired one second before this round's moment.
            let now = start.addingTimeInterval(Double(round) * 100)
            let dead = try #require(try takers[0].leases.acquire("token-refresh", duration: 99, now: now.addingTimeInterval(-100)))
            let outcomes = Locked<[LeaseAttempt]>([])
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: takers.count) { index in
                do {
                    let outcome = try takers[index].leases.attempt("token-refresh", duration: 60, now: now)
                    outcomes.withLock { $0.append(outcome) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let holders = outcomes.withLock { $0 }.compactMap { outcome -> Lease? in
                if case .acquired(let lease, _) = outcome { lease } else { nil }
            }
            #expect(holders.count == 1, "round \(round): \(holders.count) processes believe they hold the lease")
            if let holder = holders.first {
                #expect(try takers[0].leases.current("token-refresh") == holder)
                try takers[0].leases.release(holder)
            }
            _ = dead
        }
    }

    @Test func breakingAStaleLeaseLeavesAFreshOneInItsPlaceAlone() throws {
        let home = TemporaryContainer()
        let slow = try home.open()
        let fast = try home.open()
        let now = Date()
        let dead = try #require(try slow.leases.acquire("token-refresh", duration: 1, now: now.addingTimeInterval(-10)))
        let staleBytes = try #require(try slow.contents(of: SharedContainer.leasePath("token-refresh"), kind: "lease"))
        // While the slow process was deciding to break the dead lease, a fast one broke it and took its own.
        guard case .acquired(let fresh, let broken) = try fast.leases.attempt("token-refresh", duration: 60, now: now) else {
            Issue.record("the expired lease was not taken over")
            return
        }
        #expect(broken == dead)
        #expect(try slow.leases.breakLease("token-refresh", stale: staleBytes) == false)
        #expect(try slow.leases.current("token-refresh") == fresh)
    }

    @Test func aDamagedLeaseFileCountsAsExpired() throws {
        let home = TemporaryContainer()
        let container = try home.open()
        try Data("garbage".utf8).write(to: container.url(SharedContainer.leasePath("token-refresh")))
        #expect(try container.leases.current("token-refresh") == nil)
        #expect(try container.leases.acquire("token-refresh", duration: 5) != nil)
    }

    @Test func concurrentTakersNeverHoldTheSameLeaseTogether() async throws {
        let home = TemporaryContainer()
        let containers = try (0..<8).map { _ in try home.open() }
        let occupancy = Occupancy()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for container in containers {
                group.addTask {
                    for _ in 0..<100 {
                        guard let lease = try container.leases.acquire("token-refresh", duration: 30) else { continue }
                        occupancy.enter()
                        occupancy.leave()
                        try container.leases.release(lease)
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = occupancy.counts
        #expect(counts.maximum == 1)
        #expect(counts.acquisitions > 0)
        // The empty removal-lock file and the staging folder stay (they are reused); nothing
        // else may, in either.
        let leases = home.directory.appendingPathComponent("leases")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: leases.path)
            .filter { $0 != ".token-refresh.removal-lock" && $0 != ".staging" }
            + FileManager.default.contentsOfDirectory(atPath: leases.appendingPathComponent(".staging").path)
        #expect(leftovers.isEmpty, "temporary or broken lease files left: \(leftovers)")
    }
}

/// Counts how many tasks hold the lease at once.
final class Occupancy: Sendable {
    private let state = Locked((holders: 0, maximum: 0, acquisitions: 0))

    func enter() {
        state.withLock { state in
            state.holders += 1
            state.maximum = max(state.maximum, state.holders)
            state.acquisitions += 1
        }
    }

    func leave() { state.withLock { $0.holders -= 1 } }

    var counts: (maximum: Int, acquisitions: Int) { state.withLock { ($0.maximum, $0.acquisitions) } }
}
