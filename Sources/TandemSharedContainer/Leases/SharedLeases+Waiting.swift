#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension SharedLeases {
    /// Returns once no live lease named `name` is on file: its holder released it, or it expired
    /// because its holder died. This is how the loser of a single flight waits for the winner
    /// and then reads the winner's result instead of repeating the work.
    ///
    /// It holds no lock while waiting, and sleeps until the lease file changes where the
    /// platform can watch a directory (polling elsewhere). An unreadable lease file counts as
    /// no lease.
    ///
    /// ```swift
    /// if let lease = try container.leases.acquire("token-refresh", duration: 10) {
    ///     defer { try? container.leases.release(lease) }
    ///     try await refreshAndStoreTokens()
    /// } else {
    ///     try await container.leases.wait(for: "token-refresh", duration: 10, timeout: .seconds(10))
    ///     tokens = try readStoredTokens()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The lease's name, as given to ``acquire(_:duration:now:)``.
    ///   - duration: The duration the lease is taken for, as given to ``acquire(_:duration:now:)``:
    ///     a lease on file claiming more counts as broken and is not waited for
    ///     (``Lease/isPlausible(at:maximumDuration:)``).
    ///   - timeout: How long to wait at most.
    ///   - expiryCheckDelay: How long to take a lease on file for live before reading it. A
    ///     waiter that has just seen a peer take the lease can save the read and the decoding
    ///     while that peer needs the CPU; a holder that died is then noticed that much later.
    ///   - clock: The time leases expire by, and the timeout and the delay run on.
    /// - Throws: ``SharedContainerError/timedOut(lease:)`` when the lease is still live after `timeout`,
    ///   ``SharedContainerError/cancelled`` when the task is cancelled, ``SharedContainerError/invalidName(_:)``,
    ///   ``SharedContainerError/io(_:)``.
    public func wait(
        for name: String, duration: TimeInterval, timeout: Duration, expiryCheckDelay: Duration = .zero,
        clock: any WallClock = SystemClock()
    ) async throws(SharedContainerError) {
        try SharedContainer.validate(name)
        let firstFullLook = clock.now.addingTimeInterval(expiryCheckDelay.timeInterval)
        try await waitForRelease(name, duration: duration, firstFullLook: firstFullLook, timeout: timeout, clock: clock)
    }

    /// Whether a lease file named `name` is on file, live or not, without reading it: one
    /// `access` call, for a process that only needs to know whether to wait.
    ///
    /// - Throws: ``SharedContainerError/invalidName(_:)``.
    public func isOnFile(_ name: String) throws(SharedContainerError) -> Bool {
        try SharedContainer.validate(name)
        return FileSystem.exists(atPath: file(name).path)
    }

    /// Returns once no live lease is on file, `holder` being the one another process held when
    /// ``attempt(_:duration:now:)`` reported it: released, or expired. (Should yet another
    /// process take the lease meanwhile, that one is waited for too.) The same wait as
    /// ``wait(for:duration:timeout:expiryCheckDelay:clock:)``, without reading the lease again first.
    ///
    /// - Throws: As ``wait(for:duration:timeout:expiryCheckDelay:clock:)``.
    public func wait(
        forReleaseOf holder: Lease, duration: TimeInterval, timeout: Duration, clock: any WallClock = SystemClock()
    ) async throws(SharedContainerError) {
        try SharedContainer.validate(holder.name)
        // Its expiry is known: the file itself is read again only then, or 10 ms from now.
        // Clamped as a Double: a lease file may claim any expiry (a year, or 1e300 s).
        let now = clock.now
        let firstFullLook = now.addingTimeInterval(min(max(0, holder.expiresAt.timeIntervalSince(now)), 0.010))
        try await waitForRelease(holder.name, duration: duration, firstFullLook: firstFullLook, timeout: timeout, clock: clock)
    }

    /// The wait itself: a full look (read, decode, check the expiry) at `firstFullLook` and every
    /// 10 ms after, and in between only whether the file is still there, after each wake-up of
    /// the `DirectoryWatch` or each poll (every millisecond for the first 50 ms, then backing
    /// off to 10 ms). The full looks and the deadline are on `clock`; the watch and the polls
    /// wait on the operating system, in real time, and only hint that it is time to look.
    private func waitForRelease(
        _ name: String, duration: TimeInterval, firstFullLook: Date, timeout: Duration, clock: any WallClock
    ) async throws(SharedContainerError) {
        let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
        // The polls back off on the real clock: they are about the CPU, not about the lease.
        let eager = ContinuousClock.now.advanced(by: .milliseconds(50))
        let leaseFile = file(name)
        let watch = DirectoryWatch.shared
        var pause = Duration.milliseconds(1)
        var nextExpiryCheck = firstFullLook
        while true {
            let now = clock.now
            if now >= nextExpiryCheck {
                guard let lease = try current(name), lease.isLive(at: now, maximumDuration: duration) else { return }
                nextExpiryCheck = now.addingTimeInterval(0.010)
            } else if !FileSystem.exists(atPath: leaseFile.path) {
                return
            }
            guard now < deadline else { throw .timedOut(lease: name) }
            if Task.isCancelled { throw .cancelled }
            let wakeUp = min(nextExpiryCheck, deadline)
            if let watch {
                let watched = await clock.sleep(until: wakeUp) {
                    await watch.wait(
                        forChangeOf: leaseFile.lastPathComponent, in: leaseFile.deletingLastPathComponent(),
                        upTo: .seconds(max(0, wakeUp.timeIntervalSince(now)))
                    ) { FileSystem.exists(atPath: leaseFile.path) }
                }
                if watched { continue }
            }
            let poll = min(pause, .seconds(max(0, deadline.timeIntervalSince(now))))
            _ = await clock.sleep(until: wakeUp) { (try? await Task.sleep(for: poll)) != nil }
            if Task.isCancelled { throw .cancelled }
            if ContinuousClock.now > eager { pause = min(pause * 2, .milliseconds(10)) }
        }
    }
}
