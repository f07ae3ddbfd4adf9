import Foundation
import TandemPlatform

/// A clock that moves only when told to, for tests, the ``TimelineSimulator`` and the
/// ``PhoneDay``.
///
/// Share one clock between the simulator and the code under test, so that code sees the
/// simulated time. It is a `WallClock`: whatever sleeps on it (a server's maintenance loop, a
/// polling wait) wakes when the clock is moved past its deadline, never on its own.
///
/// ```swift
/// let clock = VirtualClock(Date(timeIntervalSince1970: 1_767_258_000))
/// clock.advance(by: 3_600)
/// ```
public final class VirtualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
    }

    private let state: Locked<State>

    /// A clock that reads `start` until it is moved.
    public init(_ start: Date) {
        state = Locked(State(now: start))
    }

    /// The clock's time.
    public var now: Date {
        state.withLock { $0.now }
    }

    /// Moves the clock to `date`; a date before ``now`` leaves it where it is, since time
    /// does not run backwards for a widget.
    public func set(_ date: Date) {
        move { max($0, date) }
    }

    /// Moves the clock `interval` seconds forward (a negative interval does nothing).
    public func advance(by interval: TimeInterval) {
        move { $0.addingTimeInterval(max(0, interval)) }
    }

    /// Suspends until the clock is moved to `now + duration` or later; returns at once for a
    /// duration of zero or less.
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
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.now.addingTimeInterval(duration.timeInterval), continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
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

    /// Moves the time and wakes the sleepers whose deadline it reached.
    private func move(_ next: (Date) -> Date) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = next(state.now)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }
}
