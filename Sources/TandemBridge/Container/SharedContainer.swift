import Foundation
import Logging
import TandemVault

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory an app shares with its extensions (the App Group container on Apple
/// platforms, any directory elsewhere), holding only small files written atomically.
///
/// There is deliberately no database here and no lock held for longer than a short
/// ``Lease``: an app suspended while it holds a lock on a file in the shared container is
/// killed by the system (0xdead10cc), and its widgets go blank.
///
/// What it holds, each in its own file of extensions: the session ``status()``, ``Lease``s
/// (`+Leases`, `+LeaseWaiting`), sealed records such as the direct-mode grant (`+Sealed`),
/// ``DataRequest``s (`+Requests`), ``Snapshot``s (`+Snapshots`), ``WidgetConfiguration``s
/// (`+Configurations`) and ``QueuedEvent``s (`+Events`). Nothing secret is in a plain file:
/// requests are sealed under the ``BridgeKey``, snapshots and the grant under a ``ContainerKey``.
/// A damaged, foreign or newer-format file is a typed ``BridgeError`` when read alone, and is
/// skipped with a log line when listed with others.
///
/// ```swift
/// let container = try SharedContainer(directory: appGroupURL)
/// try container.setStatus(SessionStatus(state: .ready))   // in the host
/// let status = try container.status()                     // in the widget
/// ```
public struct SharedContainer: Sendable {
    /// The shared directory.
    public let directory: URL
    let logger: Logger

    /// The subdirectories of the layout in DESIGN.md ("Shared container").
    /// (`leases/.staging` holds lease files being written, outside the watched `leases`.)
    static let folders = ["requests", "snapshots", "leases", "leases/.staging", "configurations", "events"]

    /// Opens the container at `directory`, creating it and its folders if needed, and removes
    /// the temporary files of writes that a killed process left behind over a minute ago.
    ///
    /// - Parameters:
    ///   - directory: The App Group container (or a directory standing in for it).
    ///   - logger: Receives a line for every damaged record that is skipped; never a secret.
    public init(directory: URL, logger: Logger = Logger(label: "tandem.bridge")) throws(BridgeError) {
        self.directory = directory
        self.logger = logger
        do {
            for folder in [""] + Self.folders {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(folder, isDirectory: true), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw .io("cannot create \(directory.path): \(error.localizedDescription)")
        }
        removeLeftovers()
    }

    // MARK: - Session status

    /// Publishes the host's session state for extensions.
    public func setStatus(_ status: SessionStatus) throws(BridgeError) {
        try write(status, kind: "status", to: "status")
    }

    /// The host's session state, or `nil` when the host never wrote one (treat as signed out).
    ///
    /// - Throws: ``BridgeError`` when the status file is damaged, foreign or of a newer format.
    public func status() throws(BridgeError) -> SessionStatus? {
        try read(SessionStatus.self, kind: "status", from: "status")
    }

    // MARK: - Records

    /// Writes `value` as a record of `kind` at `path` (relative to the container), atomically:
    /// temporary file, `fsync` (for a durable record), `rename` (for a cache record on Linux, an
    /// exchange of names; see `AtomicFile.replace`).
    ///
    /// - Returns: The bytes written.
    @discardableResult
    func write<Value: Codable>(_ value: Value, kind: String, to path: String, durability: RecordDurability = .durable) throws(BridgeError) -> Data {
        let data = try SharedRecord<Value>.encode(value, kind: kind)
        try write(data, to: path, durability: durability)
        return data
    }

    /// Writes the bytes of a record at `path`, atomically (see ``write(_:kind:to:durability:)``).
    func write(_ data: Data, to path: String, durability: RecordDurability) throws(BridgeError) {
        do {
            try AtomicFile.replace(url(path), with: data, permissions: 0o600, durable: durability == .durable)
        } catch {
            throw .io("cannot write \(path): \(error)")
        }
    }

    /// The record of `kind` at `path`, or `nil` when there is no file.
    func read<Value: Codable>(_ type: Value.Type, kind: String, from path: String) throws(BridgeError) -> Value? {
        guard let data = try contents(of: path) else { return nil }
        return try SharedRecord<Value>.decode(data, kind: kind, path: path)
    }

    /// The bytes of the file at `path`, or `nil` when it does not exist.
    func contents(of path: String) throws(BridgeError) -> Data? {
        let fileURL = url(path)
        do {
            return try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            // Judged by the error itself: another process may create the file right after the
            // failed read (a lease taken), and a second look would then call the miss an I/O error.
            return nil
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return nil }
            throw .io("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Removes the file at `path`; a missing file is not an error.
    func remove(_ path: String) throws(BridgeError) {
        if unlink(url(path).path) != 0 && errno != ENOENT {
            throw .io("cannot remove \(path): \(String(cString: strerror(errno)))")
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
        guard rename(file.path, aside.path) == 0 else { return false }  // already gone
        defer { unlink(aside.path) }
        guard (try? Data(contentsOf: aside)) == expected else {
            _ = link(aside.path, file.path)
            return false
        }
        // Not flushed: what is removed here (a handled request) is harmless if a power loss
        // brings it back.
        return true
    }

    /// The paths (relative to the container) of the records named `*.<suffix>` in `folder`,
    /// sorted. Temporary files (hidden) are passed over; any other file is logged and skipped.
    func recordPaths(in folder: String, suffix: String) throws(BridgeError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        } catch {
            throw .io("cannot list \(folder): \(error.localizedDescription)")
        }
        return names.sorted().compactMap { name in
            if name.hasPrefix(".") { return nil }
            guard name.hasSuffix(".\(suffix)") else {
                logger.warning("ignoring a foreign file in the shared container", metadata: ["path": "\(folder)/\(name)"])
                return nil
            }
            return "\(folder)/\(name)"
        }
    }

    /// Reads every record of a folder with `read`, skipping (with a log line) those that fail:
    /// one damaged file never hides the others.
    func readEach<Record>(_ paths: [String], _ read: (String) throws(BridgeError) -> Record?) -> [Record] {
        paths.compactMap { path in
            do throws(BridgeError) {
                return try read(path)
            } catch {
                logger.warning("skipping an unreadable shared record", metadata: ["path": "\(path)", "error": "\(error)"])
                return nil
            }
        }
    }

    func url(_ path: String) -> URL { directory.appendingPathComponent(path, isDirectory: false) }

    /// Checks that `name` can stand as one file name.
    static func validate(_ name: String) throws(BridgeError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard allowed, !name.isEmpty, !name.hasPrefix("."), name.count <= 200 else { throw .invalidName(name) }
    }
}
