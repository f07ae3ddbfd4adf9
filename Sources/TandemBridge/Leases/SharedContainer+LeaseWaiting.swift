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
    /// Where the platform can watch a directory (inotify on Linux, see `LeaseReleaseMonitor`)
    /// it sleeps until the lease file changes, and looks at the file at least every 10 ms in
    /// case an event is missed. Elsewhere it polls: every millisecond for the first 50 ms — a
    /// token refresh takes a few milliseconds, and a waiter that noticed its end late would make
    /// every process wait longer than the refresh itself — then backing off to 10 ms for a
    /// holder that is slow or dead. Each wake-up costs CPU the holder needs to finish (a
    /// `Task.sleep` is several thread hand-offs), which is why the watch comes first. It holds
    /// no lock while waiting. An unreadable lease file counts as no lease.
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
    ///   - expiryCheckDelay: How long to take a lease on file for live before reading it. A
    ///     waiter that has just seen a peer take the lease can save the read and the decoding
    ///     while that peer needs the CPU; a holder that died is then noticed that much later.
    /// - Throws: ``BridgeError/timedOut(lease:)`` when the lease is still live after `timeout`,
    ///   ``BridgeError/cancelled`` when the task is cancelled, ``BridgeError/invalidName(_:)``,
    ///   ``BridgeError/io(_:)``.
    public func waitForLease(_ name: String, timeout: Duration, expiryCheckDelay: Duration = .zero) async throws(BridgeError) {
        try Self.validate(name)
        try await waitForRelease(name, firstFullLook: ContinuousClock.now.advanced(by: expiryCheckDelay), timeout: timeout)
    }

    /// Whether a lease file named `name` is on file, live or not, without reading it: one
    /// `access` call, for a process that only needs to know whether to wait.
    ///
    /// - Throws: ``BridgeError/invalidName(_:)``.
    public func isLeaseOnFile(_ name: String) throws(BridgeError) -> Bool {
        try Self.validate(name)
        return access(url(Self.leasePath(name)).path, F_OK) == 0
    }

    /// Returns once no live lease is on file, `holder` being the one another process held when
    /// ``attemptLease(_:duration:now:)`` reported it: released, or expired. (Should yet another
    /// process take the lease meanwhile, that one is waited for too.) The same wait as
    /// ``waitForLease(_:timeout:expiryCheckDelay:)``, without reading the lease again first.
    ///
    /// - Throws: As ``waitForLease(_:timeout:expiryCheckDelay:)``.
    public func waitForRelease(of holder: Lease, timeout: Duration) async throws(BridgeError) {
        try Self.validate(holder.name)
        // Its expiry is known: the file itself is read again only then, or 10 ms from now.
        // Clamped as a Double first: a lease file may claim any expiry (a year, or 1e300 s).
        let untilExpiry = min(max(0, holder.expiresAt.timeIntervalSinceNow), 0.010)
        let firstFullLook = ContinuousClock.now.advanced(by: .microseconds(Int64(untilExpiry * 1_000_000)))
        try await waitForRelease(holder.name, firstFullLook: firstFullLook, timeout: timeout)
    }

    private func waitForRelease(_ name: String, firstFullLook: ContinuousClock.Instant, timeout: Duration) async throws(BridgeError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let eager = clock.now.advanced(by: .milliseconds(50))
        let leaseFile = url(Self.leasePath(name))
        let monitor = LeaseReleaseMonitor.shared
        var pause = Duration.milliseconds(1)
        var nextExpiryCheck = firstFullLook
        while true {
            let now = clock.now
            // Between full looks (read, decode, check the expiry) only ask whether the file is
            // still there.
            if now >= nextExpiryCheck {
                guard let lease = try currentLease(name), lease.isLive(at: Date()) else { return }
                nextExpiryCheck = now.advanced(by: .milliseconds(10))
            } else if access(leaseFile.path, F_OK) != 0 {
                return
            }
            guard now < deadline else { throw .timedOut(lease: name) }
            if Task.isCancelled { throw .cancelled }
            if let monitor {
                let watched = await monitor.wait(
                    forChangeOf: leaseFile.lastPathComponent, in: leaseFile.deletingLastPathComponent(),
                    upTo: min(now.duration(to: nextExpiryCheck), now.duration(to: deadline))
                ) { access(leaseFile.path, F_OK) == 0 }
                if watched { continue }
            }
            do {
                try await Task.sleep(for: min(pause, now.duration(to: deadline)))
            } catch {
                throw .cancelled
            }
            if now > eager { pause = min(pause * 2, .milliseconds(10)) }
        }
    }
}
