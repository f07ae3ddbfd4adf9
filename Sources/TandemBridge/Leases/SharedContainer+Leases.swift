import Foundation
import TandemVault

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SharedContainer {
    /// Takes the lease `name` for `duration` seconds, breaking an expired one; `nil` when a live
    /// lease is held by someone else.
    ///
    /// ```swift
    /// if let lease = try container.acquireLease("token-refresh", duration: 10) {
    ///     defer { try? container.releaseLease(lease) }
    ///     try await refresh()
    /// }
    /// ```
    public func acquireLease(_ name: String, duration: TimeInterval, now: Date = Date()) throws(BridgeError) -> Lease? {
        guard case .acquired(let lease, _) = try attemptLease(name, duration: duration, now: now) else { return nil }
        return lease
    }

    /// Takes the lease `name` for `duration` seconds, breaking an expired one, and says what it
    /// found: the lease taken (and the expired one it replaced), or the live lease held by
    /// someone else, ready to wait for without reading it again.
    ///
    /// ```swift
    /// switch try container.attemptLease("token-refresh", duration: 10) {
    /// case .acquired(let lease, _):
    ///     defer { try? container.releaseLease(lease) }
    ///     try await refresh()
    /// case .held(let holder):
    ///     try await container.waitForRelease(of: holder, timeout: .seconds(10))
    /// }
    /// ```
    ///
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``; a live lease that a
    ///   race keeps replacing after two attempts is reported as held.
    public func attemptLease(_ name: String, duration: TimeInterval, now: Date = Date()) throws(BridgeError) -> LeaseAttempt {
        try Self.validate(name)
        // Most callers that find a lease find a live one: say so without writing anything.
        let found = try currentLeaseRecord(name)
        if let held = found?.lease, held.isLive(at: now) { return .held(by: held) }
        let lease = Lease(name: name, owner: UUID().uuidString, acquiredAt: now, expiresAt: now.addingTimeInterval(duration))
        let data = try SharedRecord<Lease>.encode(lease, kind: "lease")
        var broken: Lease?
        let unknownHolder = Lease(name: name, owner: "", acquiredAt: now, expiresAt: now)
        // Two attempts: a first try, and one after breaking an expired lease.
        for _ in 0..<2 {
            if try createExclusively(data, at: Self.leasePath(name)) { return .acquired(lease, brokeExpired: broken) }
            switch try currentLeaseRecord(name) {
            case .none:
                continue  // released between our attempt and our look
            case .some(let existing) where existing.lease?.isLive(at: now) == true:
                return .held(by: existing.lease ?? unknownHolder)
            case .some(let stale):
                if try breakLease(name, stale: stale.data) { broken = stale.lease ?? unknownHolder }
            }
        }
        // Replaced twice in a row between our attempts: someone else is taking it. Report a
        // holder that has already expired, so that a waiter looks at the file at once.
        return .held(by: unknownHolder)
    }

    /// Gives the lease back, if it is still the caller's (an expired lease may have been broken
    /// and taken by another process; that one is left alone).
    public func releaseLease(_ lease: Lease) throws(BridgeError) {
        try Self.validate(lease.name)
        try withRemovalLock(lease.name) { () throws(BridgeError) in
            guard let current = try currentLeaseRecord(lease.name), current.lease?.owner == lease.owner else { return }
            try remove(Self.leasePath(lease.name))
        }
    }

    /// The lease currently on file for `name`, live or not; `nil` when there is none or it is
    /// unreadable (an unreadable lease counts as expired and is broken by the next taker).
    public func currentLease(_ name: String) throws(BridgeError) -> Lease? {
        try Self.validate(name)
        return try currentLeaseRecord(name)?.lease
    }

    // MARK: - Internals

    static func leasePath(_ name: String) -> String { "leases/\(name).lease" }

    private func currentLeaseRecord(_ name: String) throws(BridgeError) -> (data: Data, lease: Lease?)? {
        let path = Self.leasePath(name)
        guard let data = try contents(of: path) else { return nil }
        do throws(BridgeError) {
            return (data, try SharedRecord<Lease>.decode(data, kind: "lease", path: path))
        } catch {
            logger.warning("unreadable lease treated as expired", metadata: ["lease": "\(name)", "error": "\(error)"])
            return (data, nil)
        }
    }

    /// Creates `path` with `data` only if it does not exist: the content is complete before the
    /// file appears, so no reader ever sees a half-written lease.
    ///
    /// The file is written in `leases/.staging` and linked into place, so that the only entries
    /// that come and go in `leases` itself are leases: waiters watching it (see
    /// `LeaseReleaseMonitor`) are not woken by temporary files.
    private func createExclusively(_ data: Data, at path: String) throws(BridgeError) -> Bool {
        let temporary = "leases/.staging/\(UUID().uuidString)"
        do {
            // Not flushed: a lease only matters while its processes run, and expires anyway.
            try AtomicFile.create(url(temporary), with: data, permissions: 0o600)
        } catch {
            throw .io("cannot write a lease: \(error)")
        }
        defer { unlink(url(temporary).path) }
        if link(url(temporary).path, url(path).path) == 0 { return true }
        if errno == EEXIST { return false }
        throw .io("cannot create \(path): \(String(cString: strerror(errno)))")
    }

    /// Deletes an expired lease — unless, in a race, another process replaced it with a fresh one.
    ///
    /// - Returns: Whether this call removed it.
    func breakLease(_ name: String, stale: Data) throws(BridgeError) -> Bool {
        let removed = try withRemovalLock(name) { () throws(BridgeError) -> Bool in
            // Under the lock nobody else removes the file, and nobody creates one while it is
            // there: what is read here is what is removed.
            guard try contents(of: Self.leasePath(name)) == stale else { return false }
            try remove(Self.leasePath(name))
            return true
        }
        if removed { logger.notice("expired lease broken", metadata: ["lease": "\(name)"]) }
        return removed
    }

    /// Runs `body` holding the lease's removal lock: every removal of a lease file (a release, a
    /// break) checks what the file holds and removes it under this lock, so that no process
    /// removes a lease another process has just put in its place.
    ///
    /// It is an `flock` on a hidden file beside the lease, held for one read and one `unlink`
    /// (microseconds, never across a suspension point) and released by the system if the
    /// process dies. Creating a lease needs no lock: `link` fails if the file exists.
    private func withRemovalLock<Result>(_ name: String, _ body: () throws(BridgeError) -> Result) throws(BridgeError) -> Result {
        let lockPath = url("leases/.\(name).removal-lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open the lock of lease \(name): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("cannot lock lease \(name): \(String(cString: strerror(errno)))") }
        }
        return try body()
    }
}
