import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

/// The test clock every time-dependent test relies on: sleepers wake when time is moved past
/// their deadline, not before, and cancellation ends a sleep.
@Suite struct ManualClockTests {
    @Test func aSleeperWakesOnlyWhenTimeIsMovedPastItsDeadline() async throws {
        let clock = ManualClock()
        let start = clock.now
        let woke = Task { try await clock.sleep(for: .seconds(5)); return clock.now }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let wokeAt = try await woke.value
        #expect(wokeAt == start.addingTimeInterval(5))
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepingUntilAPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        try await clock.sleep(until: clock.now.addingTimeInterval(-1))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperEndsItsSleepWithCancellationError() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingToADateWakesEverySleeperItReaches() async throws {
        let clock = ManualClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let long = Task { try await clock.sleep(for: .seconds(100)) }
        try await clock.waitForSleepers(2)
        clock.advance(to: clock.now.addingTimeInterval(10))
        try await short.value
        #expect(clock.sleeperCount == 1)
        long.cancel()
    }

    /// Code that never sleeps on the clock fails the test after the timeout instead of hanging
    /// the suite; a sleeper that comes later still satisfies a later wait.
    @Test func waitingForASleeperThatNeverComesThrowsAfterTheTimeout() async throws {
        let clock = ManualClock()
        await #expect(throws: TestSetupError.self) { try await clock.waitForSleepers(timeout: .milliseconds(20)) }
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        try await sleeper.value
    }
}
