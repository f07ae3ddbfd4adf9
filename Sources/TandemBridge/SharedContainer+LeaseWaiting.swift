import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SharedContainer {
    /// Returns once no live lease named `name` is on file: its holder released it, or it expired
    /// because its holder died. This is how the loser of a single flight waits for the winner
    /// and then reads the winner's result instead of repeating the work.
    ///
    /// It polls: every millisecond for the first 50 ms — a token refresh takes a few
    /// milliseconds, and a waiter that noticed its end late would make every process wait
    /// longer than the refresh itself; one look costs a small file read — then backing off to
    /// 10 ms for a holder that is slow or dead. A file-system watch is neither portable nor
    /// reliable in an App Group. It holds no lock and no file open while waiting. An unreadable
    /// lease file counts as no lease.
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
        let eager = clock.now.advanced(by: .milliseconds(50))
        let leaseFile = url(Self.leasePath(name)).path
        var pause = Duration.milliseconds(1)
        var nextExpiryCheck = clock.now
        while true {
            let now = clock.now
            // Between full looks (read, decode, check the expiry) only ask whether the file is
            // still there: several waiters polling every millisecond must not take the CPU
            // the holder needs to finish.
            if now >= nextExpiryCheck {
                guard let lease = try currentLease(name), lease.isLive(at: Date()) else { return }
                nextExpiryCheck = now.advanced(by: .milliseconds(10))
            } else if access(leaseFile, F_OK) != 0 {
                return
            }
            guard now < deadline else { throw .timedOut(lease: name) }
            do {
                try await Task.sleep(for: min(pause, now.duration(to: deadline)))
            } catch {
                throw .cancelled
            }
            if now > eager { pause = min(pause * 2, .milliseconds(10)) }
        }
    }
}
