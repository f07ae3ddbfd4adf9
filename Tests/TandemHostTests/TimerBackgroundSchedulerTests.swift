import Foundation
import TandemHost
import Testing

@Suite("The Linux background scheduler")
struct TimerBackgroundSchedulerTests {
    @Test func schedulingBeforeRegisteringIsATypedError() async {
        let scheduler = TimerBackgroundScheduler()
        await #expect(throws: BackgroundSchedulerError.notRegistered) {
            try await scheduler.schedule(earliestBegin: Date())
        }
    }

    @Test func aScheduledRunHappensNoEarlierThanAsked() async throws {
        let scheduler = TimerBackgroundScheduler()
        let ranAt = Recorder<Date>()
        await scheduler.register {
            ranAt.append(Date())
            return true
        }
        let asked = Date().addingTimeInterval(0.2)
        try await scheduler.schedule(earliestBegin: asked)
        let deadline = ContinuousClock.now + .seconds(120)
        while await scheduler.history.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await scheduler.history == [.completed(success: true)])
        #expect(try #require(ranAt.all.first) >= asked)
    }

    @Test func workThatOutlastsItsTimeIsCancelledAndReportedExpired() async throws {
        let scheduler = TimerBackgroundScheduler(allowedDuration: .milliseconds(100))
        let sawCancellation = Recorder<Bool>()
        await scheduler.register {
            do {
                try await Task.sleep(for: .seconds(600))
                return true
            } catch {
                sawCancellation.append(error is CancellationError)
                return false
            }
        }
        let started = ContinuousClock.now
        #expect(await scheduler.runNow() == .expired)
        // Far sooner than the work's own 600 s (the bound is loose: a loaded test machine can
        // hold a 100 ms timer back by seconds).
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(sawCancellation.all == [true], "the work was cancelled, so a flow stops at its next safe point")
    }

    @Test func aNewRequestReplacesThePendingOne() async throws {
        let scheduler = TimerBackgroundScheduler()
        await scheduler.register { true }
        try await scheduler.schedule(earliestBegin: Date().addingTimeInterval(0.2))
        try await scheduler.schedule(earliestBegin: Date().addingTimeInterval(3600))
        try await Task.sleep(for: .seconds(2))
        #expect(await scheduler.history.isEmpty, "the request for 0.2 s from now was replaced by the one an hour later")
        await scheduler.cancelPending()
    }
}
