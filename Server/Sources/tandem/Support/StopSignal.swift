import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM turned into a request to stop that a long-running command checks between
/// units of work (`tandem host run` finishes the background run in progress, then exits).
///
/// `@unchecked Sendable`: besides its locked state it holds only the dispatch sources, which it
/// keeps alive and never touches after `init`.
final class StopSignal: @unchecked Sendable {
    private struct State {
        var requested = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private var sources: [any DispatchSourceSignal] = []

    /// Catches `signals` (their default action, ending the process at once, is turned off).
    init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request() }
            source.resume()
            return source
        }
    }

    /// Whether a stop was asked for.
    var requested: Bool { state.withLock { $0.requested } }

    /// Returns when a stop is asked for (at once if it was), or when the task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    guard !state.requested else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func request() {
        let waiters = state.withLock { state in
            state.requested = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
