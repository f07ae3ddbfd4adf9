#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// The lease files themselves: reading, creating and removing them.
extension SharedLeases {
    /// What is on file for a lease: the file's bytes (`nil` when the entry is not a small
    /// regular file) and the lease they hold (`nil` when unreadable). Either `nil` counts as a
    /// broken lease.
    struct OnFile {
        let data: Data?
        let lease: Lease?
    }

    func file(_ name: String) -> URL { directory.appendingPathComponent("\(name).lease", isDirectory: false) }

    /// The entry on file for `name`, or `nil` when there is none.
    func onFile(_ name: String) throws(SharedContainerError) -> OnFile? {
        switch try SharedContainer.readFile(at: file(name), kind: "lease", named: "lease \(name)") {
        case .missing:
            return nil
        case .refused(let refusal):
            logger.warning("a lease file that is not a lease counts as broken", metadata: ["lease": "\(name)", "reason": "\(refusal)"])
            return OnFile(data: nil, lease: nil)
        case .contents(let data):
            do throws(SharedContainerError) {
                return OnFile(data: data, lease: try SharedRecord<Lease>.decode(data, kind: "lease", path: "\(name).lease"))
            } catch {
                logger.warning("unreadable lease treated as expired", metadata: ["lease": "\(name)", "error": "\(error)"])
                return OnFile(data: data, lease: nil)
            }
        }
    }

    /// Creates the lease file of `name` with `data` only if it does not exist: the content is
    /// complete before the file appears, so no reader ever sees a half-written lease.
    ///
    /// The file is written in `.staging` and linked into place, so that the only entries that
    /// come and go in the lease directory itself are leases: waiters watching it (see
    /// `DirectoryWatch`) are not woken by temporary files.
    func createExclusively(_ data: Data, name: String) throws(SharedContainerError) -> Bool {
        let temporary = directory.appendingPathComponent(".staging/\(UUID().uuidString)", isDirectory: false)
        do {
            // Not flushed: a lease only matters while its processes run, and expires anyway.
            try AtomicFile.create(temporary, with: data, permissions: 0o600)
        } catch {
            throw .io("cannot write a lease: \(error)")
        }
        defer { try? FileSystem.remove(atPath: temporary.path) }
        do {
            try FileSystem.hardLink(temporary.path, to: file(name).path)
            return true
        } catch where error.isAlreadyExisting {
            return false
        } catch {
            throw .io("cannot create lease \(name): \(error)")
        }
    }

    /// Deletes a broken lease — unless, in a race, another process replaced it with a fresh one.
    ///
    /// - Parameter stale: The bytes seen on file; `nil` for an entry that is not a lease file
    ///   (a link, a named pipe, a huge file), which only a hostile process writes.
    /// - Returns: Whether this call removed it.
    func breakLease(_ name: String, stale: Data?) throws(SharedContainerError) -> Bool {
        let removed = try withRemovalLock(name) { () throws(SharedContainerError) -> Bool in
            // Under the lock nobody else removes the file, and nobody creates one while it is
            // there: what is read here is what is removed. (A lease is never anything but a
            // small regular file, so an entry that still is not one is still the stale one.)
            guard let now = try onFile(name), now.data == stale else { return false }
            do {
                try FileSystem.remove(atPath: file(name).path)
            } catch {
                // A directory: it cannot be removed like a file. The lease stays unavailable.
                logger.warning("cannot break a lease", metadata: ["lease": "\(name)", "error": "\(error)"])
                return false
            }
            return true
        }
        if removed { logger.notice("expired or implausible lease broken", metadata: ["lease": "\(name)"]) }
        return removed
    }

    /// Removes the lease file of `name` (under its removal lock); a missing one is fine.
    func remove(_ name: String) throws(SharedContainerError) {
        try SharedContainer.removeFile(at: file(name), named: "lease \(name)")
    }

    /// Runs `body` holding the lease's removal lock: every removal of a lease file (a release, a
    /// break) checks what the file holds and removes it under this lock, so that no process
    /// removes a lease another process has just put in its place.
    ///
    /// It is a `FileLock` on a hidden file beside the lease (opened without following a link),
    /// held for one read and one `unlink` (never across a suspension point) and released by the
    /// system if the process dies. Creating a lease needs no lock: `link` fails if the file exists.
    func withRemovalLock<Result>(_ name: String, _ body: () throws(SharedContainerError) -> Result) throws(SharedContainerError) -> Result {
        let lock: FileLock
        do {
            lock = try FileLock(exclusiveOn: directory.appendingPathComponent(".\(name).removal-lock").path)
        } catch {
            throw .io("cannot lock lease \(name): \(error)")
        }
        defer { lock.unlock() }
        return try body()
    }
}
