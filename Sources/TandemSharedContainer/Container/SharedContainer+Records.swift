#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// The records' file operations, shared by the views: plain and sealed records are written,
/// read, listed and removed through these.
extension SharedContainer {
    /// Writes `value` as a record of `kind` at `path` (relative to the container), atomically:
    /// temporary file, `fsync` (for a durable record), `rename` (for a cache record on Linux, an
    /// exchange of names; see `AtomicFile.replace`).
    ///
    /// - Returns: The bytes written.
    @discardableResult
    func write<Value: Codable>(_ value: Value, kind: String, to path: String, durability: RecordDurability = .durable) throws(SharedContainerError) -> Data {
        let data = try SharedRecord<Value>.encode(value, kind: kind)
        try write(data, kind: kind, to: path, durability: durability)
        return data
    }

    /// Writes the bytes of a `kind` record at `path`, atomically (see
    /// ``write(_:kind:to:durability:)``), if they are within the kind's size limit.
    func write(_ data: Data, kind: String, to path: String, durability: RecordDurability) throws(SharedContainerError) {
        let limit = RecordSizeLimit.bytes(forKind: kind)
        guard data.count <= limit else { throw .tooLarge(kind: kind, size: data.count, limit: limit) }
        do {
            try AtomicFile.replace(url(path), with: data, permissions: 0o600, durable: durability == .durable)
        } catch {
            throw .io("cannot write \(path): \(error)")
        }
    }

    /// The record of `kind` at `path`, or `nil` when there is no file (or no regular file).
    func read<Value: Codable>(_ type: Value.Type, kind: String, from path: String) throws(SharedContainerError) -> Value? {
        guard let data = try contents(of: path, kind: kind) else { return nil }
        return try SharedRecord<Value>.decode(data, kind: kind, path: path)
    }

    /// The bytes of the `kind` record at `path`, or `nil` when it does not exist — or when what
    /// is there is not a regular file within the kind's size limit (a link, a named pipe, a
    /// directory, a huge file: any process with access to the container may put one there),
    /// which is logged and never read.
    func contents(of path: String, kind: String) throws(SharedContainerError) -> Data? {
        switch try Self.readFile(at: url(path), kind: kind, named: path) {
        case .missing:
            return nil
        case .contents(let data):
            return data
        case .refused(let refusal):
            logger.warning("ignoring an entry that is not a record", metadata: ["path": "\(path)", "reason": "\(refusal)"])
            return nil
        }
    }

    /// Removes the file at `path`; a missing file is not an error.
    func remove(_ path: String) throws(SharedContainerError) {
        try Self.removeFile(at: url(path), named: path)
    }

    /// What is at `file`, read as a `kind` record may be (see `UntrustedFile`); `name` names it
    /// in errors.
    static func readFile(at file: URL, kind: String, named name: String) throws(SharedContainerError) -> UntrustedFile.Reading {
        do {
            return try UntrustedFile.read(atPath: file.path, maximumSize: RecordSizeLimit.bytes(forKind: kind))
        } catch {
            throw .io("cannot read \(name): \(error)")
        }
    }

    /// Removes `file`; a missing one is not an error. `name` names it in errors.
    static func removeFile(at file: URL, named name: String) throws(SharedContainerError) {
        do {
            try FileSystem.removeIfPresent(atPath: file.path)
        } catch {
            throw .io("cannot remove \(name): \(error)")
        }
    }

    /// Removes `path` only if it still holds exactly `expected`, and says whether it did.
    ///
    /// The file is first moved aside (atomic), then compared: a record written by another
    /// process between the caller's read and this call is put back instead of being lost. If
    /// yet another record appeared meanwhile, that newest one stays.
    func removeIfUnchanged(_ path: String, expected: Data) -> Bool {
        let file = url(path)
        let aside = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).aside")
        guard (try? FileSystem.move(file.path, to: aside.path)) != nil else { return false }  // already gone
        defer { try? FileSystem.remove(atPath: aside.path) }
        let found = try? UntrustedFile.read(atPath: aside.path, maximumSize: expected.count)
        guard found == .contents(expected) else {
            _ = try? FileSystem.hardLink(aside.path, to: file.path)
            return false
        }
        // Not flushed: what is removed here (a handled request) is harmless if a power loss
        // brings it back.
        return true
    }

    /// The paths (relative to the container) of the records named `*.<suffix>` in `folder`,
    /// sorted. Temporary files (hidden) are passed over; any other file is skipped, and logged
    /// unless `quiet` (a waiter that looks again and again would repeat the line) or named
    /// `*.<other>` for one of `others` (another kind of record that shares the folder).
    func recordPaths(in folder: String, suffix: String, quiet: Bool = false, others: [String] = []) throws(SharedContainerError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        } catch {
            throw .io("cannot list \(folder): \(error)")
        }
        return names.sorted().compactMap { name in
            if name.hasPrefix(".") { return nil }
            guard name.hasSuffix(".\(suffix)") else {
                if quiet || others.contains(where: { name.hasSuffix(".\($0)") }) { return nil }
                logger.warning("ignoring a foreign file in the shared container", metadata: ["path": "\(folder)/\(name)"])
                return nil
            }
            return "\(folder)/\(name)"
        }
    }

    /// Reads every record of a folder with `read`, skipping (with a log line) those that fail:
    /// one damaged file never hides the others.
    func readEach<Record>(_ paths: [String], _ read: (String) throws(SharedContainerError) -> Record?) -> [Record] {
        paths.compactMap { path in
            do throws(SharedContainerError) {
                return try read(path)
            } catch {
                logger.warning("skipping an unreadable shared record", metadata: ["path": "\(path)", "error": "\(error)"])
                return nil
            }
        }
    }

    func url(_ path: String) -> URL { directory.appendingPathComponent(path, isDirectory: false) }

    /// Checks that `name` can stand as one file name.
    static func validate(_ name: String) throws(SharedContainerError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard allowed, !name.isEmpty, !name.hasPrefix("."), name.count <= 200 else { throw .invalidName(name) }
    }
}
