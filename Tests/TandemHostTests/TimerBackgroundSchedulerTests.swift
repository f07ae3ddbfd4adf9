import Foundation
import TandemHost
import TandemTestSupport
import Testing

@Suite("The Linux background scheduler")
struct TimerBackgroundSchedulerTests {
    let clock = ManualClock()

    @Test func schedulingBeforeRegisteringIsATypedError() async {
        let scheduler = TimerBackgroundScheduler(clock: clock)
        await #expect(throws: BackgroundSchedulerError.notRegistered) {
            try await scheduler.schedule(earliestBegin: clock.now)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aScheduledRunHappensNoEarlierThanAsked() async throws {
        let scheduler = TimerBackgroundScheduler(clock: clock)
        let (runs, ran) = AsyncStream.makeStream(of: Date.self)
        await scheduler.register { [clock] in
            ran.yield(clock.now)
            return true
        }
        let asked = clock.now.addingTimeInterval(15 * 60)
        try await scheduler.schedule(earliestBegin: asked)
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(15 * 60 - 1))
        #expect(clock.sleeperCount == 1, "a second early, the run still waits")
        clock.advance(by: .seconds(1))
        var iterator = runs.makeAsyncIterator()
        #expect(await iterator.next() == asked)
        while await scheduler.history.isEmpty { await Task.yield() }
        #expect(await scheduler.history == [.completed(success: true)])
    }

    @Test(.timeLimit(.minutes(1))) func workThatOutlastsItsTimeIsCancelledAndReportedExpired() async throws {
        let scheduler = TimerBackgroundScheduler(allowedDuration: .seconds(30), clock: clock)
        let sawCancellation = Recorder<Bool>()
        await scheduler.register { [clock] in
            do {
                try await clock.sleep(for: .seconds(600))
                return true
            } catch {
                sawCancellation.append(error is CancellationError)
                return false
            }
        }
        let run = Task { await scheduler.runNow() }
        try await clock.waitForSleepers(2)  // the work, and the run's allowed time
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 2, "within its time the work goes on")
        clock.advance(by: .seconds(1))
        #expect(await run.value == .expired)
        #expect(sawCancellation.all == [true], "the work was cancelled, so a flow stops at its next safe point")
    }

    @Test(.timeLimit(.minutes(1))) func aNewRequestReplacesThePendingOne() async throws {
        let scheduler = TimerBackgroundScheduler(clock: clock)
        let (runs, ran) = AsyncStream.makeStream(of: Date.self)
        await scheduler.register { [clock] in
            ran.yield(clock.now)
            return true
        }
        try await scheduler.schedule(earliestBegin: clock.now.addingTimeInterval(60))
        try await clock.waitForSleepers()
        let later = clock.now.addingTimeInterval(3600)
        try await scheduler.schedule(earliestBegin: later)
        // The replaced request's wait ended as it was replaced; only the new one waits.
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(60))
        #expect(clock.sleeperCount == 1, "the request for a minute from now was replaced by the one an hour later")
        clock.advance(to: later)
        var iterator = runs.makeAsyncIterator()
        #expect(await iterator.next() == later, "the only run is the later request's")
        while await scheduler.history.isEmpty { await Task.yield() }
        #expect(await scheduler.history == [.completed(success: true)])
    }

    /// A request is good for one run, on a phone as here: without a repeat interval the host is
    /// woken once and never again while the app stays closed; with one, each run asks for the next.
    @Test(.timeLimit(.minutes(1)), arguments: [nil, Duration.seconds(30 * 60)])
    func oneRequestKeepsGoingOnlyWithARepeatInterval(repeatInterval: Duration?) async throws {
        let scheduler = TimerBackgroundScheduler(repeatInterval: repeatInterval, clock: clock)
        let (runs, ran) = AsyncStream.makeStream(of: Date.self)
        await scheduler.register { [clock] in
            ran.yield(clock.now)
            return true
        }
        let start = clock.now
        try await scheduler.schedule(earliestBegin: start.addingTimeInterval(15 * 60))
        var iterator = runs.makeAsyncIterator()
        for hour in 1...3 {
            if hour > 1 && repeatInterval == nil {
                // Nothing waits any more: the one request was spent by the first run.
                #expect(clock.sleeperCount == 0)
                break
            }
            try await clock.waitForSleepers()
            clock.advance(to: start.addingTimeInterval(Double(hour) * 3600))
            #expect(await iterator.next() == start.addingTimeInterval(Double(hour) * 3600))
            while await scheduler.history.count < hour { await Task.yield() }
        }
        let expected = repeatInterval == nil ? 1 : 3
        #expect(await scheduler.history == Array(repeating: .completed(success: true), count: expected))
    }
}
