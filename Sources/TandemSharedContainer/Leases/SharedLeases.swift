#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

extension SharedContainer {
    /// The container's cross-process leases, in its `leases` folder.
    public var leases: SharedLeases { SharedLeases(existing: url("leases"), logger: logger) }

    static func leasePath(_ name: String) -> String { "leases/\(name).lease" }
}

/// Short cross-process leases in a directory: single flight between processes. A lease
/// expires on its own, so a process that dies holding one blocks nobody for long, and no lock
/// is held while a lease is.
///
/// The extensions' leases are in the shared container (``SharedContainer/leases``); a lease
/// only the host's processes take belongs in the host's private directory, where no extension
/// can write (`init(directory:logger:)`).
///
/// Take one with ``acquire(_:duration:now:)`` or ``attempt(_:duration:now:)``, give it back with
/// ``release(_:)``, and wait for another process's with
/// ``wait(for:duration:timeout:expiryCheckDelay:clock:)`` or ``wait(forReleaseOf:duration:timeout:clock:)``.
public struct SharedLeases: Sendable {
    /// The directory holding the lease files.
    public let directory: URL
    let logger: Logger

    /// Leases in `directory`, created (`0700`) if needed.
    ///
    /// ```swift
    /// let leases = try SharedLeases(directory: privateDirectory.appendingPathComponent("leases"))
    /// ```
    ///
    /// - Parameters:
    ///   - directory: A directory that every process sharing the leases can write, and only they.
    ///   - logger: Receives a line for every lease broken or file ignored; never a secret.
    /// - Throws: ``SharedContainerError/io(_:)`` when the directory cannot be created.
    public init(directory: URL, logger: Logger = Logger(label: "tandem.leases")) throws(SharedContainerError) {
        do {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(".staging", isDirectory: true), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("cannot create \(directory.path): \(error)")
        }
        self.init(existing: directory, logger: logger)
    }

    /// Leases in `directory`, which exists with its `.staging` folder.
    init(existing directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Takes the lease `name` for `duration` seconds, breaking an expired or implausible one;
    /// `nil` when a live lease is held by someone else.
    ///
    /// ```swift
    /// if let lease = try container.leases.acquire("token-refresh", duration: 10) {
    ///     defer { try? container.leases.release(lease) }
    ///     try await refresh()
    /// }
    /// ```
    public func acquire(_ name: String, duration: TimeInterval, now: Date = Date()) throws(SharedContainerError) -> Lease? {
        guard case .acquired(let lease, _) = try attempt(name, duration: duration, now: now) else { return nil }
        return lease
    }

    /// Takes the lease `name` for `duration` seconds, breaking an expired one, and says what it
    /// found: the lease taken (and the one it replaced), or the live lease held by someone else,
    /// ready to wait for without reading it again.
    ///
    /// A lease on file counts as broken when it expired, or when it claims more than a lease of
    /// `duration` can (see ``Lease/isPlausible(at:maximumDuration:)``), or when it is
    /// unreadable or not a lease file at all.
    ///
    /// ```swift
    /// switch try container.leases.attempt("token-refresh", duration: 10) {
    /// case .acquired(let lease, _):
    ///     defer { try? container.leases.release(lease) }
    ///     try await refresh()
    /// case .held(let holder):
    ///     try await container.leases.wait(forReleaseOf: holder, duration: 10, timeout: .seconds(10))
    /// }
    /// ```
    ///
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``; a live lease that a
    ///   race keeps replacing after two attempts is reported as held.
    public func attempt(_ name: String, duration: TimeInterval, now: Date = Date()) throws(SharedContainerError) -> LeaseAttempt {
        try SharedContainer.validate(name)
        // Most callers that find a lease find a live one: say so without writing anything.
        let found = try onFile(name)
        if let held = found?.lease, held.isLive(at: now, maximumDuration: duration) { return .held(by: held) }
        let lease = Lease(name: name, owner: UUID().uuidString, acquiredAt: now, expiresAt: now.addingTimeInterval(duration))
        let data = try SharedRecord<Lease>.encode(lease, kind: "lease")
        var broken: Lease?
        let unknownHolder = Lease(name: name, owner: "", acquiredAt: now, expiresAt: now)
        // Two attempts: a first try, and one after breaking an expired lease.
        for _ in 0..<2 {
            if try createExclusively(data, name: name) { return .acquired(lease, brokeExpired: broken) }
            switch try onFile(name) {
            case .none:
                continue  // released between our attempt and our look
            case .some(let existing) where existing.lease?.isLive(at: now, maximumDuration: duration) == true:
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
    public func release(_ lease: Lease) throws(SharedContainerError) {
        try SharedContainer.validate(lease.name)
        try withRemovalLock(lease.name) { () throws(SharedContainerError) in
            guard let current = try onFile(lease.name), current.lease?.owner == lease.owner else { return }
            try remove(lease.name)
        }
    }

    /// The lease currently on file for `name`, live or not; `nil` when there is none or it is
    /// unreadable (an unreadable lease counts as expired and is broken by the next taker).
    public func current(_ name: String) throws(SharedContainerError) -> Lease? {
        try SharedContainer.validate(name)
        return try onFile(name)?.lease
    }
}
