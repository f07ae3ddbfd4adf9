import Synchronization

/// Runs password hashes off the event loop, at most ``width`` at a time.
///
/// An scrypt hash at the default cost holds 128 MiB while it runs, so a burst of sign-ins must
/// queue rather than run side by side; waiters are served in arrival order.
///
/// ```swift
/// let gate = HashingGate(width: 2)
/// let matches = await gate.run { (try? hasher.verify(password, against: stored)) ?? false }
/// ```
final class HashingGate: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// How many hashes may run at once.
    let width: Int
    private let state: Mutex<State>

    /// Creates a gate letting `width` hashes (at least one) run at once.
    init(width: Int) {
        self.width = max(width, 1)
        state = Mutex(State(available: max(width, 1)))
    }

    /// Runs `work` on a detached task once a slot is free, and returns its result.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await acquire()
        defer { release() }
        return await Task.detached(operation: work).value
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.available > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
