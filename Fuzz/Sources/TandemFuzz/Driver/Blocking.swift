import Dispatch

/// Waits for an async entry point from libFuzzer's synchronous callback.
enum Blocking {
    private final class Result<Value: Sendable>: @unchecked Sendable {
        var value: Value?
    }

    /// Runs `body` on the concurrency runtime and returns its result once it finishes.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        let result = Result<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            result.value = await body()
            done.signal()
        }
        done.wait()
        return result.value
    }
}
