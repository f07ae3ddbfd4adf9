import Foundation
import TandemPlatform

/// Runs blocking work on a thread of its own and gives up waiting after a while, so that a test
/// of code that might hang (a read of a named pipe) fails instead of hanging the test run.
///
/// ```swift
/// let status = try await TimeLimit.seconds(5).run { try container.status() }
/// ```
public struct TimeLimit: Sendable {
    /// How long to wait.
    public let duration: Duration

    /// A limit of `seconds` seconds.
    public static func seconds(_ seconds: Int) -> TimeLimit { TimeLimit(duration: .seconds(seconds)) }

    /// The work did not finish in time; its thread is left running.
    public struct Exceeded: Error, CustomStringConvertible {
        public let duration: Duration
        public var description: String { "did not finish within \(duration)" }
    }

    /// What `body` returns or throws, run on a new thread.
    ///
    /// - Throws: What `body` throws, or ``Exceeded`` when it is still running after ``duration``.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let outcome = Locked<(Result<Value, any Error>?, CheckedContinuation<Result<Value, any Error>, Never>?)>((nil, nil))
        let finish: @Sendable (Result<Value, any Error>) -> Void = { result in
            let waiting = outcome.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
                guard state.0 == nil else { return nil }
                state.0 = result
                defer { state.1 = nil }
                return state.1
            }
            waiting?.resume(returning: result)
        }
        Thread { finish(Result { try body() }) }.start()
        let limit = duration
        Task {
            try? await Task.sleep(for: limit)
            finish(.failure(Exceeded(duration: limit)))
        }
        let result = await withCheckedContinuation { continuation in
            let done = outcome.withLock { state -> Result<Value, any Error>? in
                if state.0 == nil { state.1 = continuation }
                return state.0
            }
            if let done { continuation.resume(returning: done) }
        }
        return try result.get()
    }
}
