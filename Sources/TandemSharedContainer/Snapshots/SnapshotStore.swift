#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension SharedContainer {
    /// The snapshots the host writes for widgets.
    public var snapshots: SnapshotStore { SnapshotStore(container: self) }
}

/// Snapshots: the answers to data requests, written sealed by the host, read by widgets.
///
/// ```swift
/// try container.snapshots.write(snapshot, for: request)                              // the host
/// let reading = try container.snapshots.read(kind: "entities", key: key, using: share)  // a widget
/// ```
public struct SnapshotStore: Sendable {
    let container: SharedContainer

    /// Writes the answer to `request`, sealed under the snapshot key of the request's share,
    /// atomically, replacing the previous snapshot of the same kind and key.
    ///
    /// - Parameters:
    ///   - snapshot: The fetched data.
    ///   - request: The request it answers.
    /// - Throws: ``SharedContainerError/unencodable(_:)``, ``SharedContainerError/io(_:)``.
    public func write(_ snapshot: Snapshot, for request: DataRequest) throws(SharedContainerError) {
        try write(snapshot, id: request.id, share: request.share)
    }

    /// Writes a snapshot for `kind` + `key` without a request (for example data the host
    /// fetched anyway), sealed under the snapshot key of `share`.
    ///
    /// - Parameters:
    ///   - snapshot: The fetched data.
    ///   - kind: The kind a widget will ask for.
    ///   - key: The key a widget will ask for, equal to its request key.
    ///   - share: The extensions' current auxiliary share.
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/unencodable(_:)``, ``SharedContainerError/io(_:)``.
    public func write<Key: Encodable>(_ snapshot: Snapshot, kind: String, key: Key, share: AuxiliaryShare) throws(SharedContainerError) {
        try SharedContainer.validate(kind)
        try write(snapshot, id: DataRequest.id(kind: kind, canonicalKey: try DataRequest.canonicalKey(key)), share: share)
    }

    /// The latest snapshot for `kind` + `key`, judged fresh or stale at `now`; `nil` when there
    /// is none or when it cannot be trusted — modified, truncated, moved, of another format, or
    /// sealed under another share (after a rotation) — with a log line saying why. Never garbage.
    ///
    /// - Parameters:
    ///   - kind: What was requested, such as `entities`.
    ///   - key: Which data, encoded as in the request.
    ///   - share: The extension's auxiliary share; the snapshot key is derived from it.
    ///   - now: The time of reading.
    /// - Throws: ``SharedContainerError/io(_:)`` when the file exists but cannot be read (for example
    ///   under data protection before the first unlock: show the last content, do not claim
    ///   the user is signed out); ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/unencodable(_:)``.
    public func read<Key: Encodable>(
        kind: String, key: Key, using share: AuxiliaryShare, now: Date = Date()
    ) throws(SharedContainerError) -> SnapshotReading? {
        try SharedContainer.validate(kind)
        let path = Snapshot.path(id: DataRequest.id(kind: kind, canonicalKey: try DataRequest.canonicalKey(key)))
        guard let record = try container.contents(of: path, kind: Snapshot.recordKind) else { return nil }
        let symmetricKey = ContainerKey(share: share, purpose: .snapshots).symmetricKey
        do throws(SharedContainerError) {
            let plaintext = try container.openSealed(record, kind: Snapshot.recordKind, path: path, symmetricKey: symmetricKey)
            let snapshot = try container.decodeSealed(Snapshot.self, from: plaintext, kind: Snapshot.recordKind, path: path)
            return SnapshotReading(snapshot: snapshot, now: now)
        } catch {
            container.logger.warning("ignoring an unreadable snapshot", metadata: ["path": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    /// Removes every snapshot, for example at sign-out, so that no widget shows the previous
    /// user's data.
    ///
    /// - Throws: ``SharedContainerError/io(_:)``.
    public func removeAll() throws(SharedContainerError) {
        for path in try container.recordPaths(in: "snapshots", suffix: "snapshot") { try container.remove(path) }
        AtomicFile.syncDirectory(container.url("snapshots"))
    }

    private func write(_ snapshot: Snapshot, id: String, share: AuxiliaryShare) throws(SharedContainerError) {
        let key = ContainerKey(share: share, purpose: .snapshots)
        try container.writeSealed(value: snapshot, kind: Snapshot.recordKind, to: Snapshot.path(id: id), symmetricKey: key.symmetricKey, durability: .cache)
    }
}
