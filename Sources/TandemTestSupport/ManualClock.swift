import Foundation
import TandemPlatform

/// A `WallClock` that only moves when a test moves it: `sleep` suspends until ``advance(by:)``
/// passes the sleeper's deadline, so a test of a rate window, a polling interval or a lease
/// proves the behaviour in microseconds and the same way on a busy machine as on a quiet one.
///
/// ```swift
/// let clock = ManualClock()
/// let poll = Task { try await client.pollForTokens(clock: clock) }
/// try await clock.waitForSleepers()      // the client is waiting out its interval
/// clock.advance(by: .seconds(5))         // … and now it polls again
/// ```
public final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
        var watchers: [Watcher] = []
    }

    private let state: Locked<State>

    /// A clock that reads `start` until it is moved (by default 2030-01-01T00:00:00Z, a fixed
    /// instant so that runs are alike).
    public init(start: Date = Date(timeIntervalSince1970: 1_893_456_000)) {
        state = Locked(State(now: start))
    }

    /// The clock's time.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` reaches `now + duration`; returns at once for a duration
    /// of zero or less.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, any Error>]) in
                    if state.cancelled.remove(id) != nil { return (true, []) }
                    let deadline = state.now.addingTimeInterval(duration.timeInterval)
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, Self.satisfiedWatchers(&state))
                }
                watchers.forEach { $0.resume() }
                if resumeNow { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(duration.timeInterval)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Moves the clock forward to `date` (never back) and wakes the sleepers it reaches.
    public func advance(to date: Date) {
        let seconds = max(0, date.timeIntervalSince(now))
        advance(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// Returns once at least `count` tasks are asleep on this clock: the moment to
    /// ``advance(by:)`` past their deadlines.
    ///
    /// - Parameters:
    ///   - count: How many sleepers to wait for.
    ///   - timeout: Real time after which the code under test is taken not to sleep on this
    ///     clock at all: a generous bound for a busy machine, never the expected wait.
    /// - Throws: `TestSetupError` after `timeout`, so a test whose code never sleeps fails
    ///   instead of hanging the suite.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(120)) async throws {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let expiry = Task { [self] in
            try await Task.sleep(for: timeout)
            let watcher = state.withLock { state -> Watcher? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index)
            }
            watcher?.continuation.resume(throwing: TestSetupError("fewer than \(count) task(s) slept on the clock within \(timeout)"))
        }
        defer { expiry.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append(Watcher(id: id, count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return ready
    }
}
