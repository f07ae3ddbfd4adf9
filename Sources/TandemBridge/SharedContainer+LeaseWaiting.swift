import Foundation

extension SharedContainer {
    /// Returns once no live lease named `name` is on file: its holder released it, or it expired
    /// because its holder died. This is how the loser of a single flight waits for the winner
    /// and then reads the winner's result instead of repeating the work.
    ///
    /// It polls with a short backoff (from about 1 ms, doubling, capped at 10 ms): leases are
    /// short, and a file-system watch is neither portable nor reliable in an App Group. It
    /// holds no lock and no file open while waiting. An unreadable lease file counts as no lease.
    ///
    /// ```swift
    /// if let lease = try container.acquireLease("token-refresh", duration: 10) {
    ///     defer { try? container.releaseLease(lease) }
    ///     try await refreshAndStoreTokens()
    /// } else {
    ///     try await container.waitForLease("token-refresh", timeout: .seconds(10))
    ///     tokens = try readStoredTokens()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The lease's name, as given to ``acquireLease(_:duration:now:)``.
    ///   - timeout: How long to wait at most.
    /// - Throws: ``BridgeError/timedOut(lease:)`` when the lease is still live after `timeout`,
    ///   ``BridgeError/cancelled`` when the task is cancelled, ``BridgeError/invalidName(_:)``,
    ///   ``BridgeError/io(_:)``.
    public func waitForLease(_ name: String, timeout: Duration) async throws(BridgeError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(1)
        while true {
            guard let lease = try currentLease(name), lease.isLive(at: Date()) else { return }
            let now = clock.now
            guard now < deadline else { throw .timedOut(lease: name) }
            do {
                try await Task.sleep(for: min(pause, now.duration(to: deadline)))
            } catch {
                throw .cancelled
            }
            pause = min(pause * 2, .milliseconds(10))
        }
    }
}
