import Foundation
import TandemVault

extension SharedContainer {
    /// The container's cross-process leases.
    public var leases: SharedLeases { SharedLeases(container: self) }

    static func leasePath(_ name: String) -> String { "leases/\(name).lease" }
}

/// Short cross-process leases in the shared container: single flight between the host and its
/// extensions. A lease expires on its own, so a process that dies holding one blocks nobody
/// for long, and no lock is held while a lease is.
///
/// Take one with ``acquire(_:duration:now:)`` or ``attempt(_:duration:now:)``, give it back with
/// ``release(_:)``, and wait for another process's with ``wait(for:timeout:expiryCheckDelay:)``
/// or ``wait(forReleaseOf:timeout:)``.
public struct SharedLeases: Sendable {
    let container: SharedContainer

    /// Takes the lease `name` for `duration` seconds, breaking an expired one; `nil` when a live
    /// lease is held by someone else.
    ///
    /// ```swift
    /// if let lease = try container.leases.acquire("token-refresh", duration: 10) {
    ///     defer { try? container.leases.release(lease) }
    ///     try await refresh()
    /// }
    /// ```
    public func acquire(_ name: String, duration: TimeInterval, now: Date = Date()) throws(BridgeError) -> Lease? {
        guard case .acquired(let lease, _) = try attempt(name, duration: duration, now: now) else { return nil }
        return lease
    }

    /// Takes the lease `name` for `duration` seconds, breaking an expired one, and says what it
    /// found: the lease taken (and the expired one it replaced), or the live lease held by
    /// someone else, ready to wait for without reading it again.
    ///
    /// ```swift
    /// switch try container.leases.attempt("token-refresh", duration: 10) {
    /// case .acquired(let lease, _):
    ///     defer { try? container.leases.release(lease) }
    ///     try await refresh()
    /// case .held(let holder):
    ///     try await container.leases.wait(forReleaseOf: holder, timeout: .seconds(10))
    /// }
    /// ```
    ///
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``; a live lease that a
    ///   race keeps replacing after two attempts is reported as held.
    public func attempt(_ name: String, duration: TimeInterval, now: Date = Date()) throws(BridgeError) -> LeaseAttempt {
        try SharedContainer.validate(name)
        // Most callers that find a lease find a live one: say so without writing anything.
        let found = try currentLeaseRecord(name)
        if let held = found?.lease, held.isLive(at: now) { return .held(by: held) }
        let lease = Lease(name: name, owner: UUID().uuidString, acquiredAt: now, expiresAt: now.addingTimeInterval(duration))
        let data = try SharedRecord<Lease>.encode(lease, kind: "lease")
        var broken: Lease?
        let unknownHolder = Lease(name: name, owner: "", acquiredAt: now, expiresAt: now)
        // Two attempts: a first try, and one after breaking an expired lease.
        for _ in 0..<2 {
            if try createExclusively(data, at: SharedContainer.leasePath(name)) { return .acquired(lease, brokeExpired: broken) }
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
    public func release(_ lease: Lease) throws(BridgeError) {
        try SharedContainer.validate(lease.name)
        try withRemovalLock(lease.name) { () throws(BridgeError) in
            guard let current = try currentLeaseRecord(lease.name), current.lease?.owner == lease.owner else { return }
            try container.remove(SharedContainer.leasePath(lease.name))
        }
    }

    /// The lease currently on file for `name`, live or not; `nil` when there is none or it is
    /// unreadable (an unreadable lease counts as expired and is broken by the next taker).
    public func current(_ name: String) throws(BridgeError) -> Lease? {
        try SharedContainer.validate(name)
        return try currentLeaseRecord(name)?.lease
    }

    // MARK: - Internals

    private func currentLeaseRecord(_ name: String) throws(BridgeError) -> (data: Data, lease: Lease?)? {
        let path = SharedContainer.leasePath(name)
        guard let data = try container.contents(of: path) else { return nil }
        do throws(BridgeError) {
            return (data, try SharedRecord<Lease>.decode(data, kind: "lease", path: path))
        } catch {
            container.logger.warning("unreadable lease treated as expired", metadata: ["lease": "\(name)", "error": "\(error)"])
            return (data, nil)
        }
    }

    /// Creates `path` with `data` only if it does not exist: the content is complete before the
    /// file appears, so no reader ever sees a half-written lease.
    ///
    /// The file is written in `leases/.staging` and linked into place, so that the only entries
    /// that come and go in `leases` itself are leases: waiters watching it (see
    /// `DirectoryWatch`) are not woken by temporary files.
    private func createExclusively(_ data: Data, at path: String) throws(BridgeError) -> Bool {
        let temporary = "leases/.staging/\(UUID().uuidString)"
        do {
            // Not flushed: a lease only matters while its processes run, and expires anyway.
            try AtomicFile.create(container.url(temporary), with: data, permissions: 0o600)
        } catch {
            throw .io("cannot write a lease: \(error)")
        }
        defer { try? FileSystem.remove(atPath: container.url(temporary).path) }
        do {
            try FileSystem.hardLink(container.url(temporary).path, to: container.url(path).path)
            return true
        } catch where error.isAlreadyExisting {
            return false
        } catch {
            throw .io("cannot create \(path): \(error)")
        }
    }

    /// Deletes an expired lease — unless, in a race, another process replaced it with a fresh one.
    ///
    /// - Returns: Whether this call removed it.
    func breakLease(_ name: String, stale: Data) throws(BridgeError) -> Bool {
        let removed = try withRemovalLock(name) { () throws(BridgeError) -> Bool in
            // Under the lock nobody else removes the file, and nobody creates one while it is
            // there: what is read here is what is removed.
            guard try container.contents(of: SharedContainer.leasePath(name)) == stale else { return false }
            try container.remove(SharedContainer.leasePath(name))
            return true
        }
        if removed { container.logger.notice("expired lease broken", metadata: ["lease": "\(name)"]) }
        return removed
    }

    /// Runs `body` holding the lease's removal lock: every removal of a lease file (a release, a
    /// break) checks what the file holds and removes it under this lock, so that no process
    /// removes a lease another process has just put in its place.
    ///
    /// It is a `FileLock` on a hidden file beside the lease, held for one read and one
    /// `unlink` (never across a suspension point) and released by the system if the process
    /// dies. Creating a lease needs no lock: `link` fails if the file exists.
    private func withRemovalLock<Result>(_ name: String, _ body: () throws(BridgeError) -> Result) throws(BridgeError) -> Result {
        let lock: FileLock
        do {
            lock = try FileLock(exclusiveOn: container.url("leases/.\(name).removal-lock").path)
        } catch {
            throw .io("cannot lock lease \(name): \(error)")
        }
        defer { lock.unlock() }
        return try body()
    }
}
