import Foundation
import TandemVault

/// Snapshots: written sealed by the host, read by widgets.
extension SharedContainer {
    /// Writes the answer to `request`, sealed under the snapshot key of the request's share,
    /// atomically, replacing the previous snapshot of the same kind and key.
    ///
    /// - Parameters:
    ///   - snapshot: The fetched data.
    ///   - request: The request it answers.
    /// - Throws: ``BridgeError/unencodable(_:)``, ``BridgeError/io(_:)``.
    public func writeSnapshot(_ snapshot: Snapshot, for request: DataRequest) throws(BridgeError) {
        try writeSnapshot(snapshot, id: request.id, share: request.share)
    }

    /// Writes a snapshot for `kind` + `key` without a request (for example data the host
    /// fetched anyway), sealed under the snapshot key of `share`.
    ///
    /// - Parameters:
    ///   - snapshot: The fetched data.
    ///   - kind: The kind a widget will ask for.
    ///   - key: The key a widget will ask for, equal to its request key.
    ///   - share: The extensions' current auxiliary share.
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/unencodable(_:)``, ``BridgeError/io(_:)``.
    public func writeSnapshot<Key: Encodable>(_ snapshot: Snapshot, kind: String, key: Key, share: AuxiliaryShare) throws(BridgeError) {
        try Self.validate(kind)
        try writeSnapshot(snapshot, id: DataRequest.id(kind: kind, canonicalKey: try DataRequest.canonicalKey(key)), share: share)
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
    /// - Throws: ``BridgeError/io(_:)`` when the file exists but cannot be read (for example
    ///   under data protection before the first unlock: show the last content, do not claim
    ///   the user is signed out); ``BridgeError/invalidName(_:)``, ``BridgeError/unencodable(_:)``.
    public func snapshot<Key: Encodable>(
        kind: String, key: Key, using share: AuxiliaryShare, now: Date = Date()
    ) throws(BridgeError) -> SnapshotReading? {
        try Self.validate(kind)
        let path = Snapshot.path(id: DataRequest.id(kind: kind, canonicalKey: try DataRequest.canonicalKey(key)))
        guard let record = try contents(of: path) else { return nil }
        let symmetricKey = ContainerKey(share: share, purpose: .snapshots).symmetricKey
        do throws(BridgeError) {
            let plaintext = try openSealed(record, kind: Snapshot.recordKind, path: path, symmetricKey: symmetricKey)
            let snapshot = try decodeSealed(Snapshot.self, from: plaintext, kind: Snapshot.recordKind, path: path)
            return SnapshotReading(snapshot: snapshot, now: now)
        } catch {
            logger.warning("ignoring an unreadable snapshot", metadata: ["path": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    /// Removes every snapshot, for example at sign-out, so that no widget shows the previous
    /// user's data.
    ///
    /// - Throws: ``BridgeError/io(_:)``.
    public func removeSnapshots() throws(BridgeError) {
        for path in try recordPaths(in: "snapshots", suffix: "snapshot") { try remove(path) }
        AtomicFile.syncDirectory(url("snapshots"))
    }

    private func writeSnapshot(_ snapshot: Snapshot, id: String, share: AuxiliaryShare) throws(BridgeError) {
        let key = ContainerKey(share: share, purpose: .snapshots)
        try writeSealed(value: snapshot, kind: Snapshot.recordKind, to: Snapshot.path(id: id), symmetricKey: key.symmetricKey, durability: .cache)
    }
}
