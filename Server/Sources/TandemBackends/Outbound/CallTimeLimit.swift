/// Runs an operation against a time limit: whichever ends first, the operation or the limit,
/// decides, and the other is cancelled and awaited.
enum CallTimeLimit {
    /// Runs `operation`, or throws ``OutboundCallError/timedOut(_:)`` (`.request`) once `limit`
    /// has passed. `operation` must end soon after it is cancelled.
    static func run<Value: Sendable>(
        within limit: Duration, _ operation: @escaping @Sendable () async throws(OutboundCallError) -> Value
    ) async throws(OutboundCallError) -> Value {
        let outcome = await withTaskGroup(of: Result<Value, OutboundCallError>?.self) { group in
            group.addTask {
                do throws(OutboundCallError) {
                    return .success(try await operation())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                    return .failure(.timedOut(.request))
                } catch {
                    return nil
                }
            }
            var first: Result<Value, OutboundCallError> = .failure(.cancelled)
            for await case let result? in group {
                first = result
                break
            }
            group.cancelAll()
            return first
        }
        return try outcome.get()
    }
}
