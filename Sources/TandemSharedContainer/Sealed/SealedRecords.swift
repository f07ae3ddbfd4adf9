#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension SharedContainer {
    /// The container's sealed records, such as the direct-mode grant.
    public var sealed: SealedRecords { SealedRecords(container: self) }
}

/// Records sealed with AES-GCM under a ``ContainerKey``, at a path of the caller's choosing: a
/// record moved to another path, relabelled or downgraded does not open.
///
/// ```swift
/// let key = ContainerKey(share: share, purpose: .grant)
/// try container.sealed.write(value: grant, kind: "grant", to: "grant", key: key)
/// ```
public struct SealedRecords: Sendable {
    let container: SharedContainer

    /// Seals `plaintext` with AES-GCM under `key` (AAD binds kind + path + format version) behind
    /// the sealed-record header, and writes it atomically at `path`.
    ///
    /// ```swift
    /// let key = ContainerKey(share: share, purpose: .grant)
    /// try container.sealed.write(Data(grantJSON.utf8), kind: "grant", to: "grant", key: key)
    /// let opened = try container.sealed.read(kind: "grant", from: "grant", key: key)
    /// ```
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to protect; they never reach the disk unsealed.
    ///   - kind: What the record holds, such as `grant`; a reader asking for another kind gets
    ///     ``SharedContainerError/foreignRecord(path:kind:)``.
    ///   - path: Where to write, relative to the container (`grant`, `snapshots/<id>.snapshot`);
    ///     each component must be a valid name (`[A-Za-z0-9._-]`, not starting with a dot).
    ///   - key: The key to seal with.
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``.
    public func write(_ plaintext: Data, kind: String, to path: String, key: ContainerKey) throws(SharedContainerError) {
        try container.writeSealed(plaintext, kind: kind, to: path, symmetricKey: key.symmetricKey)
    }

    /// Seals `value`, encoded as JSON, like ``write(_:kind:to:key:)``; the plaintext is
    /// wiped from memory once sealed.
    ///
    /// - Returns: The sealed bytes written, for a later
    ///   ``read(kind:from:key:ifChangedFrom:)``.
    /// - Throws: ``SharedContainerError/unencodable(_:)`` when `value` does not encode,
    ///   ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``.
    @discardableResult
    public func write<Value: Encodable>(value: Value, kind: String, to path: String, key: ContainerKey) throws(SharedContainerError) -> Data {
        try container.writeSealed(value: value, kind: kind, to: path, symmetricKey: key.symmetricKey)
    }

    /// The opened plaintext of the sealed record at `path`, or `nil` when there is no file.
    ///
    /// - Parameters:
    ///   - kind: The kind the record was written with.
    ///   - path: Where it was written, relative to the container.
    ///   - key: The key it was sealed with.
    /// - Throws: ``SharedContainerError/undecryptable(path:)`` for a modified, truncated, moved or
    ///   otherwise-keyed record; ``SharedContainerError/corrupt(path:reason:)``,
    ///   ``SharedContainerError/unsupportedVersion(path:version:)``,
    ///   ``SharedContainerError/foreignRecord(path:kind:)`` for a file that is not such a record at all;
    ///   ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``. Never garbage.
    public func read(kind: String, from path: String, key: ContainerKey) throws(SharedContainerError) -> Data? {
        try container.readSealed(kind: kind, from: path, symmetricKey: key.symmetricKey)
    }

    /// Like ``read(kind:from:key:)``, but decrypts and decodes nothing when the file
    /// still holds `sealed`, the bytes the caller opened last time: a reader that keeps what it
    /// decoded pays for a small file read until a writer replaces the record.
    ///
    /// The comparison is on the bytes themselves, not on file times or sizes (which a quick
    /// succession of writes can leave equal): every write seals under a fresh nonce, so equal
    /// bytes are the same write.
    ///
    /// ```swift
    /// switch try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: cached?.sealed) {
    /// case .missing: cached = nil
    /// case .unchanged: break
    /// case .opened(let plaintext, let sealed): cached = (try decode(plaintext), sealed)
    /// }
    /// ```
    ///
    /// - Throws: As ``read(kind:from:key:)``.
    public func read(kind: String, from path: String, key: ContainerKey, ifChangedFrom sealed: Data?) throws(SharedContainerError) -> SealedRead {
        try SharedContainer.validate(path: path)
        guard let record = try container.contents(of: path, kind: kind) else { return .missing }
        if record == sealed { return .unchanged }
        return .opened(try container.openSealed(record, kind: kind, path: path, symmetricKey: key.symmetricKey), sealed: record)
    }

    /// Removes the record at `path` (relative to the container); a missing file is fine.
    ///
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``.
    public func remove(at path: String) throws(SharedContainerError) {
        try SharedContainer.validate(path: path)
        try container.remove(path)
        AtomicFile.syncDirectory(container.url(path).deletingLastPathComponent())
    }
}
